import type { Agent } from 'undici';

/**
 * A stream the caller left is still paid for (contract 5a): the upstream is read on, unseen, for
 * its usage chunk, at most this long and this many bytes after the caller left, then aborted
 * (the call is then counted with the tokenizer). See ProxyCall in upstream.ts.
 */
export const READ_ON_MS = 15_000;
export const READ_ON_BYTES = 1_048_576;

/** An agent's calls reading on after their caller left: aborted when the gateway closes. */
export interface TReadingOn {
  calls: Set<{ abort(): void }>;
  /** The gateway is closing: a caller leaving now (its connection cut) ends its call at once. */
  closing: boolean;
}

const readingOn = new WeakMap<Agent, TReadingOn>();

/** The calls of `agent` reading on (one record per agent, made on its first call). */
export function readingOnOf(agent: Agent): TReadingOn {
  let reading = readingOn.get(agent);
  if (!reading) readingOn.set(agent, (reading = { calls: new Set(), closing: false }));
  return reading;
}

/**
 * Ends the reading on of every call of `agent` now, and of any whose caller leaves later
 * (shutdown): each is metered as it stands.
 */
export function abortReadingOn(agent: Agent): void {
  const reading = readingOnOf(agent);
  reading.closing = true;
  for (const call of [...reading.calls]) call.abort();
}
