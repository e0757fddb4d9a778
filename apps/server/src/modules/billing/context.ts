import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import type { TChangeBus } from '../../lib/change-bus';
import type { TMailer } from '../../mail/mailer';
import type { TServices } from '../../core/services';
import type { TBillingProvider } from './provider';

/**
 * What the billing services need. Built by the billing plugin from the app, or by a job or the
 * CLI from a database; services never take the Fastify instance.
 */
export interface TBilling {
  db: TDb;
  provider: TBillingProvider;
  plans: TPlan[];
  changes: TChangeBus;
  mailer: TMailer;
  /** The platform's share of marketplace charges, percent. */
  platformFeePercent: number;
  /** PAYOUT_MINIMUM: a provider's balance under it (minor units) waits for the next month's payout. */
  payoutMinimum: number;
  /** Where the console is (APP_URL): Stripe's onboarding sends the owner back there. */
  appUrl: string;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The account's outbound webhooks (invoice events); absent in the CLI's clock command. */
  webhooks?: TServices['webhooks'];
}

declare module '../../core/services' {
  interface TServices {
    /** Billing's dependencies; declared here, so core does not import the module. */
    billing: TBilling;
  }
}
