import fp from 'fastify-plugin';
import type { TBilling } from './context';
import { createProvider } from './create';
import { runDueRenewals } from './renewals';
import { runDuePayouts } from './payouts/run';
import { repeatWhileOpen } from '../../lib/repeat-while-open';
import { listenToMemberCount } from '../membership/service';
import { membersChanged } from './seats';

declare module 'fastify' {
  interface FastifyInstance {
    /** The billing services' dependencies (provider, database, plans, mail, change bus). */
    billing: TBilling;
  }
}

/** How often an instance looks for due renewals and dunning retries. */
const RENEWAL_INTERVAL_MS = 60_000;
/** How often an instance closes the month's payouts (when due) and pays pending ones. */
const PAYOUT_INTERVAL_MS = 5 * 60_000;

export default fp(
  async (app) => {
    const provider = createProvider(app.config, app.db);
    // Mailer and change bus are plugins registered after this one (file order): read them lazily.
    const billing: TBilling = {
      db: app.db,
      provider,
      plans: app.plans,
      platformFeePercent: app.config.platformFeePercent,
      payoutMinimum: app.config.payoutMinimum,
      appUrl: app.config.appUrl,
      get changes() {
        return app.changes;
      },
      get mailer() {
        return app.mailer;
      },
      // Registered after billing (file order) too.
      get webhooks() {
        return app.webhooks;
      },
      log: app.log,
    };
    app.decorate('billing', billing);
    // A per-seat plan's quantity follows the member count, in membership's own transaction.
    listenToMemberCount(membersChanged);

    // The renewal job runs in every instance (claims keep them from working the same row); tests
    // drive it themselves.
    if (app.config.nodeEnv !== 'test') {
      repeatWhileOpen(
        app,
        RENEWAL_INTERVAL_MS,
        () => runDueRenewals(billing),
        (error) => app.log.error({ err: error }, 'renewal run failed'),
      );
      // Payouts: each month's close, then whatever is pending (idempotent on any instance).
      repeatWhileOpen(
        app,
        PAYOUT_INTERVAL_MS,
        () => runDuePayouts(billing),
        (error) => app.log.error({ err: error }, 'payout run failed'),
      );
    }
  },
  { name: 'billing' },
);
