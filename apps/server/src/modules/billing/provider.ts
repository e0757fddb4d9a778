import type { TCardErrorCode } from '@air/shared/schemas/billing';

/*
 * The one billing interface the rest of the server talks to (BILLING_PROVIDER=local | stripe).
 * The provider keeps customers, cards (payment methods) and payments (payment intents); the
 * subscription engine (periods, seats, prorations, invoices, renewals) is the server's own
 * (plan-change.ts, card.ts, invoice-payment.ts, renewals.ts), so both providers behave the same and the renewal job works offline.
 */

export interface TCardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type TPaymentStatus =
  'succeeded' | 'requires_action' | 'requires_payment_method' | 'processing' | 'canceled';

export interface TPayment {
  id: string;
  status: TPaymentStatus;
  /** Given to the browser to confirm a payment that requires action (3-D Secure). */
  clientSecret: string | null;
  amount: number;
  currency: string;
  customerRef: string;
  /** What the charge is for (intent.ts: a plan change or an invoice), read back when the payment is confirmed. */
  metadata: Record<string, string>;
  /** Set when the last attempt failed (card_declined, insufficient_funds, ...). */
  errorCode: string | null;
}

export interface TChargeInput {
  customerRef: string;
  paymentMethodRef: string;
  /** Minor units, > 0. */
  amount: number;
  currency: string;
  description: string;
  /** The same key never charges twice: the provider answers the first payment again. */
  idempotencyKey: string;
  /** Renewals: no card holder present, so a card that needs authentication fails instead. */
  offSession: boolean;
  metadata: Record<string, string>;
}

/** A renewal invoice charged with its lines (`chargeInvoice`). */
export interface TInvoiceChargeInput extends TChargeInput {
  /** AIR's invoice: names the processor's invoice, found again on a dunning retry. */
  invoiceId: string;
  /** Its lines, minor units each; they add up to `amount`. */
  lines: { description: string; amount: number }[];
}

/** The card was refused (the processor's code; the message is localised by the server). */
export class CardError extends Error {
  constructor(
    public readonly code: TCardErrorCode,
    message: string,
    public readonly paymentId: string | null = null,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

/** The processor could not be reached or failed: nothing may change. */
export class ProcessorError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProcessorError';
  }
}

/** A refund of (part of) a succeeded payment. */
export interface TRefundInput {
  paymentRef: string;
  /** Minor units, > 0, at most what is left of the payment. */
  amount: number;
  /** The same key never refunds twice. */
  idempotencyKey: string;
  reason: string;
}

/**
 * Stripe Connect (contract 5b): providers are paid by transfers to an Express account each, which
 * Stripe onboards (identity, bank account) through a hosted link. Absent in local mode.
 */
export interface TConnect {
  /** The provider's Express account, made once per AIR account (idempotent). */
  createAccount(input: { accountId: string; email: string | null }): Promise<string>;
  /** A fresh onboarding link (they expire within minutes): Stripe sends the owner back to `returnUrl`. */
  onboardingLink(stripeAccountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  /** True when the account can receive transfers (details submitted, transfers capability active). */
  ready(stripeAccountId: string): Promise<boolean>;
  /**
   * Pays a payout: one transfer per payout whatever happens (its group names the payout, found
   * again before a new one is made; its idempotency key is the payout's). Answers its id.
   */
  transfer(input: {
    payoutId: string;
    amount: number;
    currency: string;
    destination: string;
  }): Promise<string>;
}

export interface TBillingProvider {
  readonly name: 'local' | 'stripe';
  /** Stripe's publishable key for Stripe.js; null for the local processor. */
  readonly publishableKey: string | null;
  createCustomer(input: { accountId: string; name: string }): Promise<string>;
  /**
   * Turns a single-use card token into a payment method of the account's customer. Throws
   * CardError when refused, also for a token another account made (the local processor binds
   * tokens to the account whose session made them; Stripe's own tokens are its to check).
   */
  attachCard(
    customerRef: string,
    token: string,
    accountId: string,
  ): Promise<{ paymentMethodRef: string; card: TCardDetails }>;
  detachCard(paymentMethodRef: string): Promise<void>;
  /**
   * Charges the card. Succeeded, or requires_action (client secret for 3-D Secure) when on
   * session. Throws CardError when declined, ProcessorError when the processor fails. Off session,
   * a card that needs authentication throws CardError `payment_intent_authentication_failure`
   * with the payment's id: a renewal then waits for the card holder (`requires_action`).
   */
  charge(input: TChargeInput): Promise<TPayment>;
  /**
   * Charges a renewal invoice as the processor's own invoice, one invoice item per line (Stripe:
   * the marketplace's priced-route lines appear on the customer's Stripe invoice). Same answers
   * and errors as `charge`. Absent (the local processor): `charge` the total.
   */
  chargeInvoice?(input: TInvoiceChargeInput): Promise<TPayment>;
  /**
   * Closes the processor's own invoice of an AIR invoice (made by `chargeInvoice`) that AIR settled
   * without it, so it can no longer be paid: voided when `paidBy` is another payment (a new card
   * paid the AIR invoice), marked uncollectible when AIR gave up on it (`paidBy` null). Nothing
   * when there is none, or it is paid or closed already.
   */
  closeInvoice?(customerRef: string, invoiceId: string, paidBy: string | null): Promise<void>;
  /** The payment as the processor knows it now (null when it does not exist). */
  retrievePayment(id: string): Promise<TPayment | null>;
  /**
   * Cancels a payment still waiting for the card holder's authentication (or a new card), so that
   * it can no longer be completed. Answers the payment as it is afterwards: canceled, or succeeded
   * when the card holder completed it first; null when the processor does not know it.
   */
  cancelPayment(id: string): Promise<TPayment | null>;
  /**
   * Returns `amount` of a succeeded payment to its card; answers the processor's refund id
   * (`re_…`). Throws ProcessorError when the processor refuses or fails: nothing was refunded.
   */
  refund(input: TRefundInput): Promise<string>;
  /** Payouts through Stripe Connect; absent (local) when payouts are recorded to a bank account. */
  readonly connect?: TConnect;
}
