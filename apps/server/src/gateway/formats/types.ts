/** How an upstream's answer in another format becomes what the caller's format expects. */
export interface TAnswerTranslator {
  /** A 2xx event stream: the upstream's bytes in, the caller's event-stream bytes out. */
  stream(chunk: Buffer): Buffer;
  /** The stream ended: what is still to be sent (its last events). */
  streamEnd(): Buffer;
  /** A whole answer (JSON, or an error of any status) as the caller's status and body. */
  whole(status: number, body: Buffer): { status: number; body: Buffer };
}
