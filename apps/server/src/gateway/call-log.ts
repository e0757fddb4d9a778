import type { FastifyBaseLogger } from 'fastify';
import type { TUsageRow } from '../modules/usage/service';

/** One line per gateway call, or nothing (LOG_GATEWAY_CALLS unset): see createCallLog. */
export type TCallLog = ((requestId: string, route: string, row: TUsageRow) => void) | null;

/**
 * With LOG_GATEWAY_CALLS=1, one JSON line at `info` per metered gateway call (issue 43 item 2,
 * decision 046), so an operator finds one caller's calls by key id or request id in the logs.
 * Written from the call's usage row as the meter receives it: ids, figures and codes only, never
 * the key, a header or any prompt or answer content.
 */
export function createCallLog(log: FastifyBaseLogger, enabled: boolean): TCallLog {
  if (!enabled) return null;
  return (requestId, route, row) =>
    log.info(
      {
        reqId: requestId,
        route,
        keyId: row.keyId,
        accountId: row.callerAccountId,
        status: row.status,
        attempts: row.attempts,
        latencyMs: row.latencyMs,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
        tokensEstimated: row.tokensEstimated,
        streamed: row.streamed,
        firstByteMs: row.firstByteMs ?? null,
        cacheHit: row.cacheHit,
        errorCode: row.errorCode,
      },
      'gateway call',
    );
}
