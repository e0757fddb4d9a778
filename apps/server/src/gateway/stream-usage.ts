const EVENT_END = Buffer.from('\n\n');
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
const CONTENT = /"content"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
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

  constructor(private readonly stripUsage: boolean) {}

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
    for (const match of text.matchAll(CONTENT)) {
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
      const parsed = JSON.parse(event.slice(dataAt + 5)) as {
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
        choices?: unknown[];
      };
      const usage = parsed.usage;
      if (!usage) return false;
      if (typeof usage.prompt_tokens === 'number') this.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === 'number') this.completionTokens = usage.completion_tokens;
      return Array.isArray(parsed.choices) && parsed.choices.length === 0;
    } catch {
      return false;
    }
  }
}

const USAGE_MARKER = Buffer.from('"usage"');
const PROMPT = /"prompt_tokens"\s*:\s*(\d+)/;
const COMPLETION = /"completion_tokens"\s*:\s*(\d+)/;

/**
 * Token counts from an OpenAI-style JSON answer, without parsing the whole body: `usage` comes
 * last in OpenAI's answers, so only the text after its last occurrence is read.
 */
export function tokensFrom(body: Buffer): { prompt: number | null; completion: number | null } {
  const at = body.lastIndexOf(USAGE_MARKER);
  if (at < 0) return { prompt: null, completion: null };
  const tail = body.toString('utf8', at, Math.min(body.length, at + 512));
  const prompt = PROMPT.exec(tail);
  const completion = COMPLETION.exec(tail);
  return { prompt: toInt(prompt?.[1]), completion: toInt(completion?.[1]) };
}

/** A count that fits the integer column, else null (a bogus figure must not sink the batch). */
function toInt(digits: string | undefined): number | null {
  if (digits === undefined) return null;
  const value = Number(digits);
  return value <= 2_147_483_647 ? value : null;
}
