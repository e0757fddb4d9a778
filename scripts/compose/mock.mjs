// The stand-ins `npm run test:compose` (scripts/test-compose.mjs) adds to the stack, as one service
// run by the project's own image (Node, no dependencies):
// - an OpenAI-compatible upstream on :9000: POST …/chat/completions answers a completion after
//   20 ms (so calls are in flight when an instance is killed); GET /stats counts the calls;
// - an SMTP receiver on :2525 (the instances' SMTP_URL) keeping every mail; GET /mail lists them.
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';

const mails = [];
let calls = 0;

const completion = JSON.stringify({
  id: 'chatcmpl-compose',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'compose-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});

createHttpServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method === 'POST' && req.url.endsWith('/chat/completions')) {
      calls += 1;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(completion);
      }, 20);
    } else if (req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ calls }));
    } else if (req.url === '/mail') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(mails));
    } else {
      res.writeHead(404).end();
    }
  });
}).listen(9000, '0.0.0.0');

/** Quoted-printable soft breaks and escapes undone, so links read whole. */
const unquote = (text) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));

// Just enough SMTP for nodemailer: no STARTTLS, no AUTH offered.
createTcpServer((socket) => {
  let buffer = '';
  let inData = false;
  let to = [];
  socket.write('220 mock ESMTP\r\n');
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        const end = buffer.indexOf('\r\n.\r\n');
        if (end < 0) return;
        mails.push({ to, text: unquote(buffer.slice(0, end)) });
        buffer = buffer.slice(end + 5);
        inData = false;
        to = [];
        socket.write('250 queued\r\n');
        continue;
      }
      const eol = buffer.indexOf('\r\n');
      if (eol < 0) return;
      const line = buffer.slice(0, eol);
      buffer = buffer.slice(eol + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO') socket.write('250-mock\r\n250 8BITMIME\r\n');
      else if (verb === 'RCPT') {
        to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
        socket.write('250 ok\r\n');
      } else if (verb === 'DATA') {
        inData = true;
        socket.write('354 go on\r\n');
      } else if (verb === 'QUIT') socket.end('221 bye\r\n');
      else socket.write('250 ok\r\n');
    }
  });
  socket.on('error', () => {});
}).listen(2525, '0.0.0.0');

// PID 1 in its container: without a handler SIGTERM would be ignored (and `stop` wait 10 s).
process.on('SIGTERM', () => process.exit(0));
