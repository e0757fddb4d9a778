import type { TGatewayError } from '@air/shared/schemas/gateway';

/** What the playground shows of one call, updated as the answer arrives. */
export interface TPlaygroundResult {
  status: number;
  text: string;
  /** From sending to the last byte; null while the answer is still arriving. */
  latencyMs: number | null;
  /** From sending to the first piece of answer text (streamed calls). */
  ttftMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  /** The route that answered (`x-air-route`): a fallback's when the asked route failed. */
  route: string | null;
  /** Upstream attempts the gateway made (`x-air-attempts`; 0 for a cached answer). */
  attempts: number | null;
  /** The answer came from the gateway's answer cache (`x-air-cache: hit`). */
  cached: boolean;
}

/**
 * The parts of an answer the playground reads: an OpenAI-compatible upstream's completion or
 * stream chunk (the gateway passes it through unchanged, so AIR declares no shape for it), or the
 * gateway's own error (an upstream's error may lack fields, hence Partial).
 */
interface TChunk {
  choices?: { delta?: { content?: string }; message?: { content?: string } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: Partial<TGatewayError['error']>;
}

/**
 * Sends one chat completion to the gateway with the user's key and reads the answer: server-sent
 * events chunk by chunk when streamed, else the JSON. An error answer's message is shown as the text.
 */
export async function readAnswer(options: {
  url: string;
  key: string;
  routeName: string;
  body: Record<string, unknown>;
  signal: AbortSignal;
  onUpdate: (result: TPlaygroundResult) => void;
}): Promise<TPlaygroundResult> {
  const started = performance.now();
  const result: TPlaygroundResult = {
    status: 0,
    text: '',
    latencyMs: null,
    ttftMs: null,
    promptTokens: null,
    completionTokens: null,
    route: null,
    attempts: null,
    cached: false,
  };
  const res = await fetch(options.url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.key}`,
      'Content-Type': 'application/json',
      'x-route-name': options.routeName,
    },
    body: JSON.stringify(options.body),
    signal: options.signal,
  });
  result.status = res.status;
  result.route = res.headers.get('x-air-route');
  const attempts = Number.parseInt(res.headers.get('x-air-attempts') ?? '', 10);
  result.attempts = Number.isNaN(attempts) ? null : attempts;
  result.cached = res.headers.get('x-air-cache') === 'hit';
  options.onUpdate(result);
  const takeUsage = (usage: TChunk['usage']) => {
    if (!usage) return;
    result.promptTokens = usage.prompt_tokens ?? result.promptTokens;
    result.completionTokens = usage.completion_tokens ?? result.completionTokens;
  };
  const isStream = (res.headers.get('content-type') ?? '').includes('event-stream');
  if (isStream && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += value;
      const events = pending.split('\n\n');
      pending = events.pop() ?? '';
      for (const event of events) {
        for (const line of event.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') continue;
          let chunk: TChunk;
          try {
            chunk = JSON.parse(data) as TChunk;
          } catch {
            continue;
          }
          const piece = chunk.choices?.[0]?.delta?.content ?? '';
          if (piece) {
            result.ttftMs ??= Math.round(performance.now() - started);
            result.text += piece;
          }
          takeUsage(chunk.usage);
        }
      }
      options.onUpdate(result);
    }
  } else {
    const text = await res.text();
    try {
      const answer = JSON.parse(text) as TChunk;
      result.text = answer.error?.message
        ? `${answer.error.code ? `${answer.error.code}: ` : ''}${answer.error.message}`
        : (answer.choices?.[0]?.message?.content ?? text);
      takeUsage(answer.usage);
    } catch {
      result.text = text;
    }
  }
  result.latencyMs = Math.round(performance.now() - started);
  options.onUpdate(result);
  return result;
}
