import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { COMPLETION, sseChunk } from './gateway-fixtures';

/**
 * What a programmable upstream does with its next requests: answer the completion, fail with a
 * status (429 with Retry-After, 500, 503, 400…), or only for bodies holding a string, reset the connection, hang without answering, or
 * stream two chunks and cut the connection.
 */
export type TBehaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Fails with `status` only the calls whose body contains `contains` (a body that breaks it); answers the rest. */
  | { kind: 'status-if'; contains: string; status: number }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'cut-stream' };

/**
 * A loopback OpenAI-compatible upstream that counts the calls it gets (each with its arrival time
 * and body) and behaves as told: `behave(b)` for every call, or `queue(b...)` for the next ones.
 */
export async function startProgrammableUpstream(name: string) {
  const calls: { at: number; body: string; headers: IncomingHttpHeaders }[] = [];
  let behaviour: TBehaviour = { kind: 'ok' };
  const queued: TBehaviour[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      calls.push({ at: Date.now(), body, headers: req.headers });
      let now = queued.shift() ?? behaviour;
      if (now.kind === 'status-if')
        now = body.includes(now.contains) ? { kind: 'status', status: now.status } : { kind: 'ok' };
      let stream = false;
      try {
        stream = (JSON.parse(body) as { stream?: boolean }).stream === true;
      } catch {
        // answered as JSON
      }
      switch (now.kind) {
        case 'status':
          res.writeHead(now.status, {
            'content-type': 'application/json',
            ...(now.retryAfter ? { 'retry-after': now.retryAfter } : {}),
          });
          res.end(
            JSON.stringify({ error: { message: `${name} says ${now.status}`, code: `mock_${now.status}` } }),
          );
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          return;
        case 'cut-stream':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(sseChunk('Hello'));
          res.write(sseChunk(' wor'));
          setTimeout(() => req.socket.destroy(), 20);
          return;
        default:
          if (stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.write(sseChunk(`from ${name}`));
            res.end('data: [DONE]\n\n');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...COMPLETION, id: `chatcmpl-${name}`, model: name }));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  return {
    name,
    url,
    calls,
    behave(next: TBehaviour) {
      behaviour = next;
    },
    queue(...next: TBehaviour[]) {
      queued.push(...next);
    },
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

export type TProgrammableUpstream = Awaited<ReturnType<typeof startProgrammableUpstream>>;

/** A URL nobody listens on: connections are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}
