import { describe, expect, it } from 'vitest';
import { AnthropicStream } from './anthropic';
import { ChatToAnthropicStream } from './anthropic-in';
import { GeminiStream, geminiPath } from './gemini';

// The stream translators read server-sent events however the network cuts them: fed one byte at
// a time they write exactly what they write for the whole stream at once.

function whole(make: () => { push(chunk: Buffer): Buffer; end(): Buffer }, input: string): string {
  const stream = make();
  return Buffer.concat([stream.push(Buffer.from(input)), stream.end()]).toString();
}

function byteByByte(make: () => { push(chunk: Buffer): Buffer; end(): Buffer }, input: string): string {
  const stream = make();
  const bytes = Buffer.from(input);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i++) out.push(stream.push(bytes.subarray(i, i + 1)));
  out.push(stream.end());
  return Buffer.concat(out).toString();
}

/** The chunks' JSON, without the `created` second (it is the clock's). */
function events(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => {
      const parsed = JSON.parse(event.slice(6)) as Record<string, unknown>;
      delete parsed.created;
      return parsed;
    });
}

const ANTHROPIC_EVENTS = [
  {
    type: 'message_start',
    message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 1 } },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Héllo ✓' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
  },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '1}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
]
  .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  .join('');

describe('provider stream translators', () => {
  it('Anthropic events to chat chunks, cut anywhere, multi-byte characters included', () => {
    const make = () => new AnthropicStream();
    const out = whole(make, ANTHROPIC_EVENTS);
    expect(byteByByte(make, ANTHROPIC_EVENTS)).toBe(out);
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
    const chunks = events(out) as {
      choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? null)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Héllo ✓' },
      { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '1}' } }] },
      {},
      null,
    ]);
    expect(chunks[5]!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks[6]!.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 });
  });

  it('Gemini events (CRLF-separated) to chat chunks, cut anywhere', () => {
    const answer = (parts: unknown[], finish?: string) =>
      `data: ${JSON.stringify({
        candidates: [
          { content: { role: 'model', parts }, ...(finish ? { finishReason: finish } : {}), index: 0 },
        ],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 },
        modelVersion: 'gemini-x',
        responseId: 'r1',
      })}\r\n\r\n`;
    const input = answer([{ text: 'Ça ' }]) + answer([{ text: 'va' }], 'STOP');
    const make = () => new GeminiStream('gemini-x');
    const out = whole(make, input);
    expect(byteByByte(make, input)).toBe(out);
    const chunks = events(out) as {
      choices: { delta: { content?: string }; finish_reason: string | null }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null).join('|')).toBe('|Ça |va|');
    expect(chunks[2]!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks[3]!.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 2 });
  });

  it('chat chunks to Anthropic events, cut anywhere', () => {
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const input =
      chunk({ role: 'assistant', content: '' }) +
      chunk({ content: 'Hi ✓' }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] }) +
      chunk({}, 'tool_calls') +
      `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } })}\n\n` +
      'data: [DONE]\n\n';
    const make = () => new ChatToAnthropicStream();
    const out = whole(make, input);
    expect(byteByByte(make, input)).toBe(out);
    const types = [...out.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(types).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(out).toContain('"stop_reason":"tool_use"');
    expect(out).toContain('"output_tokens":4');
  });

  it('builds the Gemini path from a base URL, a /models URL or a URL naming the method', () => {
    expect(geminiPath('/v1beta', 'gemini-2.5-flash', false)).toBe(
      '/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(geminiPath('/v1beta/models/', 'models/g', true)).toBe(
      '/v1beta/models/g:streamGenerateContent?alt=sse',
    );
    expect(geminiPath('/v1beta/models/g-pinned:generateContent?x=1', 'other', true)).toBe(
      '/v1beta/models/g-pinned:streamGenerateContent?x=1&alt=sse',
    );
  });
});
