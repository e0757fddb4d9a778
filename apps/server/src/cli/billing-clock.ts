import { ZEnvelope } from '@air/shared/schemas/common';
import { ZClockAnswer, type TClockAnswer } from '@air/shared/schemas/billing';
import { advanceAndRenew, parseDuration } from '../modules/billing/service';
import { withDatabase } from '../db/with-database';
import type { TCliCommand } from './command';

/**
 * Outside production: moves billing time forward and runs the renewals that fell due. A running
 * server is asked over HTTP (it holds the embedded database and its caches); with none running,
 * the database is opened here.
 */
const billingClock: TCliCommand = {
  description: 'move billing time forward and run due renewals and payouts (not in production)',
  usage: 'advance 31d | show',
  async run({ config, args }) {
    if (config.isProduction) {
      console.error('billing-clock is not available when NODE_ENV=production');
      return 1;
    }
    const [verb, amount] = args;
    const ms = verb === 'show' ? 0 : verb === 'advance' && amount ? parseDuration(amount) : null;
    if (ms === null) {
      console.error('Usage: npm run cli -- billing-clock advance <N>d|<N>h|<N>m   (or: billing-clock show)');
      return 1;
    }
    let answer: TClockAnswer | null = null;
    try {
      const res = await fetch(`${config.appUrl}/api/dev/billing-clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: ms }),
        signal: AbortSignal.timeout(120_000),
      });
      if (res.ok) answer = ZEnvelope(ZClockAnswer).parse(await res.json()).data;
    } catch {
      // No server running: use the database directly.
    }
    if (!answer) {
      const result = await withDatabase(config, (database) => advanceAndRenew(config, database.db, ms));
      answer = { now: result.now.toISOString(), renewed: result.renewed, payouts: result.payouts };
    }
    console.log(
      `Billing time is now ${answer.now}; ${answer.renewed} subscription(s) renewed or retried; ` +
        `${answer.payouts} payout(s) paid.`,
    );
    return 0;
  },
};

export default billingClock;
