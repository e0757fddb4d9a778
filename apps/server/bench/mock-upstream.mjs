// An OpenAI-compatible mock upstream: a fixed chat completion, optionally after a fixed delay, or
// (when the body asks `"stream":true`) a server-sent-event stream of `--chunks` chunks, the first at
// once and the rest `--chunk-gap` ms apart. At a path ending in `/v1/messages` it answers as
// Anthropic's Messages API does (the same text, and its event sequence when streamed), for the
// anthropic-upstream target. Prints `{"port":N}` when listening.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    delay: { type: 'string', default: '0' },
    chunks: { type: 'string', default: '8' },
    'chunk-gap': { type: 'string', default: '2' },
  },
});
const delay = Number(values.delay);
const chunks = Number(values.chunks);
const gap = Number(values['chunk-gap']);

const ANSWER = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello! How can I help you today?' },
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
  }),
);
// The Responses API's and embeddings' answers (issue 39), by path: a sibling of /chat/completions.
const RESPONSE = Buffer.from(
  JSON.stringify({
    id: 'resp-bench',
    object: 'response',
    created_at: 1700000000,
    status: 'completed',
    model: 'gpt-4o',
    output: [
      {
        type: 'message',
        id: 'msg-bench',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello! How can I help you today?', annotations: [] }],
      },
    ],
    usage: { input_tokens: 9, output_tokens: 9, total_tokens: 18 },
  }),
);
const EMBEDDING = Buffer.from(
  JSON.stringify({
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding: Array.from({ length: 64 }, (_, i) => i / 64) }],
    model: 'text-embedding-3-small',
    usage: { prompt_tokens: 2, total_tokens: 2 },
  }),
);
const ANSWERS = new Map([
  ['/v1/responses', RESPONSE],
  ['/v1/embeddings', EMBEDDING],
]);
const chunk = (text) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const STREAM_MARK = Buffer.from('"stream":true');

// Anthropic's Messages API (the bench's Anthropic-format upstream): a message, or its events.
const MESSAGE = Buffer.from(
  JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 9, output_tokens: 9 },
  }),
);
const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const MESSAGE_START =
  event('message_start', {
    message: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 1 },
    },
  }) +
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  event('ping', {});
const MESSAGE_END =
  event('content_block_stop', { index: 0 }) +
  event('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 9 },
  }) +
  event('message_stop', {});
const textDelta = (text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });

function answer(req, res, body) {
  const anthropic = req.url.split('?')[0].endsWith('/v1/messages');
  if (anthropic && body.includes(STREAM_MARK)) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(MESSAGE_START + textDelta('word0 '));
    let sent = 1;
    const next = () => {
      if (res.destroyed) return;
      if (sent === chunks) return res.end(MESSAGE_END);
      res.write(textDelta(`word${sent++} `));
      setTimeout(next, gap);
    };
    return void setTimeout(next, gap);
  }
  if (anthropic) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': MESSAGE.length });
    return void res.end(MESSAGE);
  }
  if (body.includes(STREAM_MARK)) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      if (sent === chunks) return res.end('data: [DONE]\n\n');
      res.write(chunk(`word${sent++} `));
      setTimeout(next, gap);
    };
    return next();
  }
  const json = ANSWERS.get(req.url.split('?')[0]) ?? ANSWER;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': json.length });
  res.end(json);
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    if (delay > 0) setTimeout(() => answer(req, res, body), delay);
    else answer(req, res, body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
