import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { LocalProcessor } from './local/processor';
import type { TBillingProvider } from './provider';
import { StripeProvider } from './stripe/provider';

/** The configured provider: the embedded processor by default, Stripe with the three STRIPE_* variables. */
export function createProvider(
  config: TConfig,
  db: TDb,
  stripeOptions: { host?: string; port?: number; protocol?: 'http' | 'https' } = {},
): TBillingProvider {
  if (config.billing.provider === 'stripe') return new StripeProvider(config.billing, stripeOptions);
  return new LocalProcessor(db);
}
