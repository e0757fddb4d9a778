import type { payoutAccounts } from '../../../db/schema/payout-accounts';

type TPayoutAccountRow = typeof payoutAccounts.$inferSelect;

/** Where a payout went, as its statement and the console say it: never more than four digits. */
export function destinationOf(account: TPayoutAccountRow): string {
  if (account.method === 'stripe') return `Stripe ${account.stripeAccountId ?? ''}`.trim();
  if (account.method === 'iban') return `IBAN ${account.country ?? ''} •••• ${account.last4 ?? ''}`;
  return `US •••• ${account.last4 ?? ''}`;
}
