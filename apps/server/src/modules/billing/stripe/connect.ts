import type Stripe from 'stripe';
import { ProcessorError, type TConnect } from '../provider';

function failed(error: unknown): never {
  throw new ProcessorError(error instanceof Error ? error.message : 'Stripe request failed', {
    cause: error,
  });
}

/**
 * Stripe Connect for payouts (contract 5b): one Express account per provider (made under a key
 * named by the AIR account, and tagged with it), Stripe-hosted onboarding, and one transfer per
 * payout from the platform's balance. Stripe then pays the connected account's bank on its own
 * schedule. Every call that creates something carries an idempotency key; a transfer is also
 * found again by its `transfer_group` (the payout's id), since Stripe forgets keys after a day.
 */
export class StripeConnect implements TConnect {
  constructor(private readonly stripe: Stripe) {}

  async createAccount(input: { accountId: string; email: string | null }): Promise<string> {
    try {
      const account = await this.stripe.accounts.create(
        {
          type: 'express',
          ...(input.email ? { email: input.email } : {}),
          capabilities: { transfers: { requested: true } },
          metadata: { air_account_id: input.accountId },
        },
        { idempotencyKey: `air_connect_${input.accountId}` },
      );
      return account.id;
    } catch (error) {
      failed(error);
    }
  }

  async onboardingLink(
    stripeAccountId: string,
    urls: { returnUrl: string; refreshUrl: string },
  ): Promise<string> {
    try {
      const link = await this.stripe.accountLinks.create({
        account: stripeAccountId,
        type: 'account_onboarding',
        return_url: urls.returnUrl,
        refresh_url: urls.refreshUrl,
      });
      return link.url;
    } catch (error) {
      failed(error);
    }
  }

  async ready(stripeAccountId: string): Promise<boolean> {
    try {
      const account = await this.stripe.accounts.retrieve(stripeAccountId);
      return account.details_submitted === true && account.capabilities?.transfers === 'active';
    } catch (error) {
      failed(error);
    }
  }

  async transfer(input: {
    payoutId: string;
    amount: number;
    currency: string;
    destination: string;
  }): Promise<string> {
    const group = `air_payout_${input.payoutId}`;
    try {
      const existing = await this.stripe.transfers.list({ transfer_group: group, limit: 1 });
      if (existing.data[0]) return existing.data[0].id;
      const transfer = await this.stripe.transfers.create(
        {
          amount: input.amount,
          currency: input.currency,
          destination: input.destination,
          transfer_group: group,
          description: 'AIR marketplace payout',
          metadata: { air_payout_id: input.payoutId },
        },
        { idempotencyKey: group },
      );
      return transfer.id;
    } catch (error) {
      failed(error);
    }
  }
}
