#!/usr/bin/env node
// An OTLP/HTTP collector that discards what it gets (the bench's AIR-traced target exports here):
// it answers every export 200 with an empty ExportTraceServiceResponse, as a collector keeping up
// would, and counts the exports and their bytes (GET /stats), so the report can show the spans
// really left AIR. Prints `{"port":N}` when it listens.
import { createServer } from 'node:http';

let exports = 0;
let bytes = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ exports, bytes }));
    return;
  }
  req.on('data', (part) => (bytes += part.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
