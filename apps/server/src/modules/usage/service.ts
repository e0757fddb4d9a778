import { and, count, eq, gte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TUsageList } from '@air/shared/schemas/usage';
import { usageEvents } from '../../db/schema';
import { periodOf, periodStart } from '../../gateway/limits';
import { gatewayStateOf } from '../../gateway/state';

/** The first instant of the month after `period`. */
function periodEnd(period: string): Date {
  const start = periodStart(period);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * This period's gateway use of one account. `calls` is the same counter the gateway enforces the
 * quota with (so the console and the 402 agree); `served` is counted from usage_events after the
 * pending batch is written, so a call made a moment ago is included.
 */
export async function accountUsage(app: FastifyInstance, accountId: string): Promise<TUsageList> {
  const state = gatewayStateOf(app);
  const period = periodOf(Date.now());
  const start = periodStart(period);
  const [calls, limits] = await Promise.all([
    state.monthlyCalls.current(accountId),
    state.directory.planLimits.get(accountId),
  ]);
  await state.meter.flush();
  const [served] = await app.db
    .select({ total: count() })
    .from(usageEvents)
    .where(and(eq(usageEvents.providerAccountId, accountId), gte(usageEvents.createdAt, start)));
  const bounds = { period, period_start: start.toISOString(), period_end: periodEnd(period).toISOString() };
  return [
    { label: 'calls', total: calls, quota: limits?.quotaCallsMonth ?? null, ...bounds },
    { label: 'served', total: Number(served?.total ?? 0), quota: null, ...bounds },
  ];
}
