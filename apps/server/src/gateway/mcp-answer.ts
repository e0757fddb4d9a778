/*
 * What an MCP tool call's answer says (contract 6d), read from the bytes the proxy passes on
 * (mcp-proxy.ts): the JSON-RPC response to the call's id, in a JSON body or among an event
 * stream's events (progress notifications and server requests may come first). Nothing of the
 * answer is changed or kept beyond the call.
 */

/** Bytes of an answer read for its outcome; past this it is passed on unread (counted as answered). */
const READ_LIMIT = 8 * 1_048_576;

/**
 * How the call ended: `result` (the tool ran), `tool_error` (a result with `isError: true`: the
 * tool ran and failed, still a delivered call), `mcp_error` (a JSON-RPC error: no tool ran), or
 * `no_answer` (the answer ended without the call's response).
 */
export type TToolOutcome = 'result' | 'tool_error' | 'mcp_error' | 'no_answer';

function outcomeOf(message: unknown, id: string | number): TToolOutcome | null {
  if (Array.isArray(message)) {
    for (const item of message) {
      const found = outcomeOf(item, id);
      if (found) return found;
    }
    return null;
  }
  if (message === null || typeof message !== 'object') return null;
  const value = message as { id?: unknown; result?: unknown; error?: unknown };
  if (value.id !== id) return null;
  if (value.error !== undefined) return 'mcp_error';
  if (value.result === null || typeof value.result !== 'object') return null;
  return (value.result as { isError?: unknown }).isError === true ? 'tool_error' : 'result';
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Reads one tool call's answer as it passes: its size and, at its end, its outcome. */
export class ToolAnswerTap {
  bytes = 0;
  private chunks: Buffer[] | null = [];

  constructor(
    private readonly id: string | number,
    private readonly eventStream: boolean,
  ) {}

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.chunks === null) return;
    if (this.bytes > READ_LIMIT) this.chunks = null;
    else this.chunks.push(chunk);
  }

  outcome(): TToolOutcome {
    if (this.chunks === null) return 'result';
    const text = Buffer.concat(this.chunks).toString('utf8');
    if (!this.eventStream) return outcomeOf(parsed(text), this.id) ?? 'no_answer';
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
        .join('\n');
      if (data === '') continue;
      const found = outcomeOf(parsed(data), this.id);
      if (found) return found;
    }
    return 'no_answer';
  }
}

/**
 * A `tools/list` answer with only the tools `keep` accepts (mcp-policy.ts): the response to `id`
 * in a JSON body or among an event stream's events is rewritten, everything else is kept as sent.
 */
export function filterToolList(
  text: string,
  eventStream: boolean,
  id: string | number,
  keep: (tool: { name: string; annotations?: unknown }) => boolean,
): string {
  const rewrite = (message: unknown): unknown => {
    if (Array.isArray(message)) return message.map(rewrite);
    if (message === null || typeof message !== 'object') return message;
    const value = message as { id?: unknown; result?: { tools?: unknown } };
    if (value.id !== id || !value.result || !Array.isArray(value.result.tools)) return message;
    const tools = (value.result.tools as unknown[]).filter(
      (tool) =>
        tool !== null &&
        typeof tool === 'object' &&
        typeof (tool as { name?: unknown }).name === 'string' &&
        keep(tool as { name: string }),
    );
    return { ...value, result: { ...value.result, tools } };
  };
  if (!eventStream) {
    const message = parsed(text);
    return message === null ? text : JSON.stringify(rewrite(message));
  }
  return text
    .split(/(\r?\n\r?\n)/)
    .map((event) => {
      const lines = event.split(/\r?\n/);
      const data = lines.filter((line) => line.startsWith('data:'));
      if (data.length === 0) return event;
      const message = parsed(data.map((line) => line.slice(line[5] === ' ' ? 6 : 5)).join('\n'));
      if (message === null) return event;
      const rest = lines.filter((line) => !line.startsWith('data:'));
      return [...rest, `data: ${JSON.stringify(rewrite(message))}`].join('\n');
    })
    .join('');
}
