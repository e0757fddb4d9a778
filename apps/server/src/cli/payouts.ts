import { billingFor, runDuePayouts } from '../modules/billing/service';
import { withDatabase } from '../db/with-database';
import type { TCliCommand } from './command';

/**
 * Runs the payout run now (each server runs it every 5 minutes): the last month's close, if not
 * made yet, then every pending payout. Safe to repeat and to run beside the servers.
 */
const payouts: TCliCommand = {
  description: "close the last month's payouts and pay the pending ones",
  usage: 'run',
  async run({ config, args }) {
    if (args.length !== 1 || args[0] !== 'run') {
      console.error('Usage: npm run cli -- payouts run');
      return 1;
    }
    const result = await withDatabase(config, (database) => runDuePayouts(billingFor(config, database.db)));
    console.log(`${result.closed} payout(s) made at the month's close; ${result.paid} payout(s) paid.`);
    return 0;
  },
};

export default payouts;
