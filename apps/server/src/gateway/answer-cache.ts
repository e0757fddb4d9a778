import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A cached answer: a non-streamed 200 JSON body and the headers the caller got with it. */
export interface TCachedAnswer {
  headers: readonly string[];
  body: Buffer;
  promptTokens: number | null;
  completionTokens: number | null;
}

/** Bytes of answers kept at most per instance, and the largest answer kept. */
const MAX_BYTES = 64 * 1_048_576;
export const MAX_CACHED_ANSWER = 1_048_576;

/** JSON with every object's keys sorted: two bodies that differ only in key order are one call. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  const parts: string[] = [];
  for (const key of keys) {
    if (object[key] === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(object[key])}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The gateway's answer cache (contract 6a, `config.cache_ttl_s`): per caller account, route and
 * request body (canonical JSON), each entry for its route's TTL. In this instance's memory,
 * bounded by size (least recently used answers go first).
 */
export class AnswerCache {
  private readonly entries = new LRUCache<string, TCachedAnswer>({
    maxSize: MAX_BYTES,
    sizeCalculation: (answer) => answer.body.length + 256,
    ttlAutopurge: false,
  });

  static keyOf(accountId: string, routeName: string, body: unknown): string {
    return createHash('sha256')
      .update(accountId)
      .update('\n')
      .update(routeName)
      .update('\n')
      .update(canonicalJson(body))
      .digest('base64url');
  }

  get(key: string): TCachedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, answer: TCachedAnswer, ttlMs: number): void {
    if (answer.body.length > MAX_CACHED_ANSWER) return;
    this.entries.set(key, answer, { ttl: ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
