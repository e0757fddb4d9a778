import pino from 'pino';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { createMemoryChangeBus } from '../../lib/change-bus';
import { createMailer } from '../../mail/mailer';
import { loadPlans } from './plans';
import { advanceClock, billingNow } from './clock';
import type { TBilling } from './context';
import { createProvider } from './create';
import { runDuePayouts } from './payouts/run';
import { runDueRenewals } from './renewals';

/** Billing's dependencies for a process that opened the database itself (the CLI, tests). */
export function billingFor(config: TConfig, db: TDb): TBilling {
  const log = pino({ level: config.logLevel === 'silent' ? 'silent' : 'warn' });
  return {
    db,
    provider: createProvider(config, db),
    plans: loadPlans(config.plansFile),
    changes: createMemoryChangeBus(),
    mailer: createMailer({ db, config, log }),
    platformFeePercent: config.platformFeePercent,
    payoutMinimum: config.payoutMinimum,
    appUrl: config.appUrl,
    log,
  };
}

/**
 * Moves the billing clock and runs what fell due (renewals, then the payout run), against a
 * database this process opened (CLI, tests).
 */
export async function advanceAndRenew(
  config: TConfig,
  db: TDb,
  ms: number,
): Promise<{ now: Date; renewed: number; payouts: number }> {
  const billing = billingFor(config, db);
  const now = ms > 0 ? await advanceClock(db, ms) : await billingNow(db);
  const renewed = await runDueRenewals(billing);
  const { paid } = await runDuePayouts(billing);
  return { now, renewed, payouts: paid };
}
