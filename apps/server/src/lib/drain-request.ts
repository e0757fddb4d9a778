import type { IncomingMessage } from 'node:http';

/** How much of an over-limit body is read and thrown away before the 413 goes out, at most. */
export const DRAIN_MAX_BYTES = 64 * 1_048_576;
/** How long a slow client may take to finish sending it. */
export const DRAIN_MAX_MS = 10_000;

/**
 * Resolves once the rest of a refused request body has been read and thrown away (or after
 * DRAIN_MAX_BYTES / DRAIN_MAX_MS, whichever comes first). A body over the limit is refused before
 * it is read; answering at once and closing would leave the client's unsent bytes unread, the
 * kernel would reset the connection, and a client that sends its whole body before reading (most
 * HTTP libraries) would see a broken pipe instead of the 413. Nothing is kept.
 */
export function drainRequest(request: IncomingMessage): Promise<void> {
  if (request.readableEnded || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('error', finish);
      request.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MAX_MS);
    request.on('data', onData);
    request.on('end', finish);
    request.on('error', finish);
    request.on('close', finish);
    request.resume();
  });
}
