import type { TUsageRow } from '../modules/usage/service';
import { estimateTokens, tokensFrom, type StreamUsageTap } from './stream-usage';
import { loadedTokenizer, loadTokenizer, promptText, type TTokenCounter } from './tokens';
import type { TCallResult } from './upstream';
import { CHAT, type TProtocol } from './protocols';

/**
 * Sets a usage row's token counts from the call's answer (contract 5a): the `usage` the upstream
 * sent, else, for a stream cut short (the caller left and the upstream sent no usage in time, or
 * the upstream cut it), the prompt and the completion streamed so far counted with the tokenizer,
 * marked as estimated. Answers null when the counts are set, or a promise when they wait for the
 * tokenizer's first load; a call whose answer carries usage never loads it.
 */
export function setCallTokens(
  row: TUsageRow,
  result: TCallResult,
  request: Record<string, unknown> | null,
  usage: TProtocol['usage'] = CHAT.usage,
): Promise<void> | null {
  const tap = result.stream;
  if (tap) {
    if (tap.hasUsage) {
      row.promptTokens = tap.promptTokens;
      row.completionTokens = tap.completionTokens;
      return null;
    }
    if (request === null) return null;
    const count = loadedTokenizer();
    if (count) {
      estimate(row, tap, request, count);
      return null;
    }
    return loadTokenizer().then(
      (loaded) => estimate(row, tap, request, loaded),
      // Not loadable (never seen): the call is still metered and charged, by length.
      () => estimate(row, tap, request, (text) => estimateTokens(text.length)),
    );
  }
  if (result.body) {
    const tokens = tokensFrom(result.body, usage);
    row.promptTokens = tokens.prompt;
    row.completionTokens = tokens.completion;
  }
  return null;
}

function estimate(
  row: TUsageRow,
  tap: StreamUsageTap,
  request: Record<string, unknown>,
  count: TTokenCounter,
): void {
  const completion = tap.completion();
  row.promptTokens = count(promptText(request));
  row.completionTokens = count(completion.text) + estimateTokens(completion.uncountedChars);
  row.tokensEstimated = true;
}
