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
      const count: TTokenCounter = (text) => (text === '' ? 0 : encoding.countTokens(text));
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
