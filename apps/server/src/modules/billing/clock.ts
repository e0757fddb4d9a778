import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { billingClock } from '../../db/schema/billing';

/**
 * Billing time: real time plus the test clock's offset (one row in billing_clock), so renewals can
 * be driven outside production with `npm run cli -- billing-clock advance 31d`.
 */
export async function billingNow(db: TDb): Promise<Date> {
  const [row] = await db
    .select({ offsetMs: billingClock.offsetMs })
    .from(billingClock)
    .where(eq(billingClock.id, 1));
  return new Date(Date.now() + (row?.offsetMs ?? 0));
}

/** `31d`, `12h`, `90m` → milliseconds; null when not understood. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,5})([dhm])$/.exec(text.trim());
  if (!match) return null;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return Number(match[1]) * unit;
}

/** Moves billing time forward; answers the new billing time. */
export async function advanceClock(db: TDb, ms: number): Promise<Date> {
  await db
    .insert(billingClock)
    .values({ id: 1, offsetMs: ms })
    .onConflictDoUpdate({
      target: billingClock.id,
      set: { offsetMs: sql`${billingClock.offsetMs} + ${ms}` },
    });
  return billingNow(db);
}

export function addInterval(start: Date, interval: string): Date {
  const end = new Date(start);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
