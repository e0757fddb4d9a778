/**
 * Token counts where the upstream gives none (contract 5a): a streamed call cut short without its
 * usage chunk is charged for its prompt and delivered completion as counted here, and admission
 * reserves a call's prompt by this count.
 *
 * The tokenizer is gpt-tokenizer's cl100k_base (GPT-3.5/4's encoding; o200k_base costs twice the
 * memory and load time for counts within a few per cent). Loading it costs about 40 MB of memory
 * and 90 ms, so it is loaded on first use, never at start nor on a call whose answer carries its
 * usage, and kept loaded after.
 */

/** Counts the tokens of a text. */
export type TTokenCounter = (text: string) => number;

let counter: TTokenCounter | null = null;
let loading: Promise<TTokenCounter> | null = null;

/** The tokenizer, loaded on first call (concurrent callers share one load). */
export function loadTokenizer(): Promise<TTokenCounter> {
  if (counter) return Promise.resolve(counter);
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then(
    (encoding) => {
      const count: TTokenCounter = (text) =>
        countInSlices(text, (slice) => encoding.countTokens(slice, ANY_TEXT));
      counter = count;
      return count;
    },
    (error: unknown) => {
      loading = null; // a failed load is tried again by the next caller
      throw error;
    },
  );
  return loading;
}

/**
 * A caller's text is counted as text: by default the tokenizer throws on a special token's
 * spelling (`<|endoftext|>`), which any prompt may contain.
 */
const ANY_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Byte-pair merging is quadratic in a run of text without spaces (64 KB of random letters: 1.6 s
 * in one piece, 0.1 s in 1 KB slices), and a caller's text must not hold the event loop that long:
 * counted in slices of at most SLICE_CHARS, cut before a space where there is one (a word's token
 * carries its leading space), so a count is within a fraction of a per cent of the whole text's.
 */
const SLICE_CHARS = 1024;

function countInSlices(text: string, count: (slice: string) => number): number {
  let tokens = 0;
  let from = 0;
  while (text.length - from > SLICE_CHARS) {
    let to = from + SLICE_CHARS;
    const space = text.lastIndexOf(' ', to - 1);
    if (space > from + SLICE_CHARS / 2) to = space;
    // Never between the halves of a surrogate pair.
    else if (isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
    tokens += count(text.slice(from, to));
    from = to;
  }
  return from < text.length ? tokens + count(text.slice(from)) : tokens;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The tokenizer when it is already loaded, else null: lets a hot path count without awaiting. */
export function loadedTokenizer(): TTokenCounter | null {
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return (await loadTokenizer())(text);
}

/**
 * The text of a chat request's messages: string contents and text parts, one message a line.
 * Images, audio and tool definitions are not counted (an estimate errs on the caller's side).
 */
export function promptText(request: Record<string, unknown>): string {
  const messages = request.messages;
  if (!Array.isArray(messages)) return '';
  const texts: string[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = (part as { text?: unknown } | null)?.text;
        if (typeof text === 'string') texts.push(text);
      }
    }
  }
  return texts.join('\n');
}

/** Prompt tokens of a chat request (its messages' text, as promptText reads it). */
export async function countPromptTokens(request: Record<string, unknown>): Promise<number> {
  return countTokens(promptText(request));
}
