// The floor: the barest useful pass-through proxy, a Node http server forwarding every POST body to
// one upstream through an undici keep-alive pool and piping the answer back. No auth, no routing,
// no metering: whatever AIR costs above this is AIR's own work. Prints `{"port":N}`.
import { createServer } from 'node:http';
import { pipeline } from 'node:stream';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: { upstream: { type: 'string' }, port: { type: 'string', default: '0' } },
});
const target = new URL(values.upstream);
const pool = new Pool(target.origin, { connections: 512, keepAliveTimeout: 30_000 });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    pool.request(
      {
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(parts),
      },
      (error, answer) => {
        if (error) {
          res.writeHead(502);
          return res.end();
        }
        const headers = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP.has(name)) headers[name] = value;
        res.writeHead(answer.statusCode, headers);
        pipeline(answer.body, res, () => {});
      },
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
