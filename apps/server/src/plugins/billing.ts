import fp from 'fastify-plugin';
import type { TBilling } from '../billing/context';
import { createProvider } from '../billing/create';
import { runDueRenewals } from '../billing/renewals';
import { repeatWhileOpen } from '../lib/repeat-while-open';

declare module 'fastify' {
  interface FastifyInstance {
    /** The billing services' dependencies (provider, database, plans, mail, change bus). */
    billing: TBilling;
  }
}

/** How often an instance looks for due renewals and dunning retries. */
const RENEWAL_INTERVAL_MS = 60_000;

export default fp(
  async (app) => {
    const provider = createProvider(app.config, app.db);
    // Mailer and change bus are plugins registered after this one (file order): read them lazily.
    const billing: TBilling = {
      db: app.db,
      provider,
      plans: app.plans,
      get changes() {
        return app.changes;
      },
      get mailer() {
        return app.mailer;
      },
      log: app.log,
    };
    app.decorate('billing', billing);

    // The renewal job runs in every instance (claims keep them from working the same row); tests
    // drive it themselves.
    if (app.config.nodeEnv !== 'test') {
      repeatWhileOpen(
        app,
        RENEWAL_INTERVAL_MS,
        () => runDueRenewals(billing),
        (error) => app.log.error({ err: error }, 'renewal run failed'),
      );
    }
  },
  { name: 'billing' },
);
