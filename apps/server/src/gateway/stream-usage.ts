import { CHAT, type TProtocol, type TStreamReading, type TTokens } from './protocols';

const EVENT_END = Buffer.from('\n\n');
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
const EMPTY = Buffer.alloc(0);

/** Characters per token, for content past COMPLETION_KEPT_CHARS (OpenAI's rule of thumb). */
const CHARS_PER_TOKEN = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Streamed content kept to count with the tokenizer when the upstream sends no usage (a few
 * hundred KB for the longest answers); past it, the rest is estimated from its length.
 */
const COMPLETION_KEPT_CHARS = 4_194_304;

/**
 * Reads a streamed (server-sent events) chat completion as it passes: the `usage` the upstream
 * sends in its last chunk (asked for with `stream_options.include_usage`), and the streamed
 * content, to count its tokens when it sends none (a stream cut short). When the caller did not
 * ask for usage, the usage-only chunk (empty `choices`) is taken out of the stream; then only
 * whole events are passed on (an event cut across two network chunks waits for its end).
 */
export class StreamUsageTap {
  promptTokens: number | null = null;
  completionTokens: number | null = null;
  contentChars = 0;
  /** The content as it came (JSON-escaped), up to COMPLETION_KEPT_CHARS. */
  private readonly content: string[] = [];
  private carry: Buffer = EMPTY;

  constructor(
    private readonly stripUsage: boolean,
    /** Where the protocol's events carry usage and generated text (protocols.ts). */
    private readonly reading: TStreamReading = CHAT.stream!,
  ) {}

  get hasUsage(): boolean {
    return this.promptTokens !== null || this.completionTokens !== null;
  }

  /** Takes one network chunk; answers the bytes to pass on to the caller. */
  push(chunk: Buffer): Buffer {
    const data = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const end = data.lastIndexOf(EVENT_END);
    if (end < 0) {
      this.carry = data;
      return this.stripUsage ? EMPTY : chunk;
    }
    const whole = data.subarray(0, end + 2);
    this.carry = end + 2 < data.length ? Buffer.from(data.subarray(end + 2)) : EMPTY;
    const text = whole.toString('utf8');
    const kept = this.read(text);
    if (!this.stripUsage) return chunk;
    return kept === null ? whole : Buffer.from(kept);
  }

  /** The end of the stream: whatever was held back. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = EMPTY;
    if (rest.length > 0) this.read(rest.toString('utf8'));
    return this.stripUsage ? rest : EMPTY;
  }

  /** The content streamed so far, as text, and the characters past what was kept. */
  completion(): { text: string; uncountedChars: number } {
    const escaped = this.content.join('');
    let text: string;
    try {
      // Each piece is the inside of a JSON string whose escapes end within it: joined, one string.
      text = JSON.parse(`"${escaped}"`) as string;
    } catch {
      text = escaped;
    }
    return { text, uncountedChars: this.contentChars - escaped.length };
  }

  /** Reads whole events; answers the text to pass on when an event was taken out, else null. */
  private read(text: string): string | null {
    for (const match of text.matchAll(this.reading.content)) {
      const piece = match[1]!;
      if (this.contentChars < COMPLETION_KEPT_CHARS) this.content.push(piece);
      this.contentChars += piece.length;
    }
    if (!USAGE_OBJECT.test(text)) return null;
    let kept = '';
    let dropped = false;
    for (const event of text.split('\n\n')) {
      if (event === '') continue;
      if (USAGE_OBJECT.test(event) && this.takeUsage(event) && this.stripUsage) {
        dropped = true;
        continue;
      }
      kept += event + '\n\n';
    }
    return dropped ? kept : null;
  }

  /** Reads an event's usage; answers true when the event carries nothing else (empty choices). */
  private takeUsage(event: string): boolean {
    const dataAt = event.indexOf('data:');
    if (dataAt < 0) return false;
    try {
      const parsed = JSON.parse(event.slice(dataAt + 5)) as unknown;
      if (parsed === null || typeof parsed !== 'object') return false;
      const found = this.reading.usageOf(parsed as Record<string, unknown>);
      if (!found) return false;
      if (found.tokens.prompt !== null) this.promptTokens = found.tokens.prompt;
      if (found.tokens.completion !== null) this.completionTokens = found.tokens.completion;
      return found.only;
    } catch {
      return false;
    }
  }
}

const USAGE_MARKER = Buffer.from('"usage"');

/**
 * Token counts from an OpenAI-style JSON answer, without parsing the whole body: `usage` comes
 * last in OpenAI's answers, so only the text after its last occurrence is read.
 */
export function tokensFrom(body: Buffer, usage: TProtocol['usage'] = CHAT.usage): TTokens {
  const at = body.lastIndexOf(USAGE_MARKER);
  if (at < 0) return { prompt: null, completion: null };
  const tail = body.toString('utf8', at, Math.min(body.length, at + 512));
  const prompt = usage.prompt.exec(tail);
  const completion = usage.completion?.exec(tail);
  let promptTokens = toInt(prompt?.[1]);
  if (promptTokens !== null && usage.promptExtra)
    for (const extra of usage.promptExtra) promptTokens += toInt(extra.exec(tail)?.[1]) ?? 0;
  return { prompt: promptTokens, completion: toInt(completion?.[1]) };
}

/** A count that fits the integer column, else null (a bogus figure must not sink the batch). */
function toInt(digits: string | undefined): number | null {
  if (digits === undefined) return null;
  const value = Number(digits);
  return value <= 2_147_483_647 ? value : null;
}
