import pino from 'pino';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { createMemoryChangeBus } from '../../lib/change-bus';
import { createMailer } from '../../mail/mailer';
import { loadPlans } from './plans';
import { advanceClock, billingNow } from './clock';
import type { TBilling } from './context';
import { createProvider } from './create';
import { runDueRenewals } from './renewals';

/** Moves the billing clock and runs what fell due, against a database this process opened (CLI, tests). */
export async function advanceAndRenew(
  config: TConfig,
  db: TDb,
  ms: number,
): Promise<{ now: Date; renewed: number }> {
  const log = pino({ level: config.logLevel === 'silent' ? 'silent' : 'warn' });
  const billing: TBilling = {
    db,
    provider: createProvider(config, db),
    plans: loadPlans(config.plansFile),
    changes: createMemoryChangeBus(),
    mailer: createMailer({ db, config, log }),
    platformFeePercent: config.platformFeePercent,
    log,
  };
  const now = ms > 0 ? await advanceClock(db, ms) : await billingNow(db);
  return { now, renewed: await runDueRenewals(billing) };
}
