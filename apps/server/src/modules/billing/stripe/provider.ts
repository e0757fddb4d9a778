import Stripe from 'stripe';
import { CARD_ERROR_CODES, type TCardErrorCode } from '@air/shared/schemas/billing';
import {
  CardError,
  ProcessorError,
  type TBillingProvider,
  type TCardDetails,
  type TChargeInput,
  type TPayment,
  type TPaymentStatus,
} from '../provider';

export interface TStripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

/** Where the SDK sends its calls: api.stripe.com unless a test points it at a loopback fake. */
export interface TStripeEndpoint {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

function cardErrorCode(error: {
  code?: string | undefined;
  decline_code?: string | undefined;
}): TCardErrorCode {
  if (error.decline_code === 'insufficient_funds') return 'insufficient_funds';
  if (error.code === 'authentication_required') return 'payment_intent_authentication_failure';
  const code = error.code as TCardErrorCode | undefined;
  return code && (CARD_ERROR_CODES as readonly string[]).includes(code) ? code : 'card_declined';
}

function toPayment(intent: Stripe.PaymentIntent): TPayment {
  return {
    id: intent.id,
    status: (['succeeded', 'requires_action', 'processing', 'canceled'].includes(intent.status)
      ? intent.status
      : 'requires_payment_method') as TPaymentStatus,
    clientSecret: intent.status === 'requires_action' ? intent.client_secret : null,
    amount: intent.amount,
    currency: intent.currency,
    customerRef: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? ''),
    metadata: { ...intent.metadata },
    errorCode: intent.last_payment_error ? cardErrorCode(intent.last_payment_error) : null,
  };
}

/** Card errors become CardError; anything else (network, 5xx, auth) a ProcessorError. */
function translate(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError) {
    const raw = error.raw as { payment_intent?: { id?: string } } | undefined;
    throw new CardError(cardErrorCode(error), error.message, raw?.payment_intent?.id ?? null);
  }
  throw new ProcessorError(error instanceof Error ? error.message : 'Stripe request failed', {
    cause: error,
  });
}

/**
 * BILLING_PROVIDER=stripe: customers, payment methods and PaymentIntents through the official
 * SDK. Every charge carries the billing module's idempotency key as Stripe's `Idempotency-Key`.
 */
export class StripeProvider implements TBillingProvider {
  readonly name = 'stripe' as const;
  readonly publishableKey: string;
  readonly stripe: Stripe;
  readonly webhookSecret: string;

  constructor(config: TStripeConfig, endpoint: TStripeEndpoint = {}) {
    this.publishableKey = config.publishableKey;
    this.webhookSecret = config.webhookSecret;
    this.stripe = new Stripe(config.secretKey, { maxNetworkRetries: 1, timeout: 20_000, ...endpoint });
  }

  async createCustomer(input: { accountId: string; name: string }): Promise<string> {
    try {
      const customer = await this.stripe.customers.create(
        { name: input.name, metadata: { account_id: input.accountId } },
        { idempotencyKey: `customer_${input.accountId}` },
      );
      return customer.id;
    } catch (error) {
      translate(error);
    }
  }

  async attachCard(
    customerRef: string,
    token: string,
  ): Promise<{ paymentMethodRef: string; card: TCardDetails }> {
    try {
      // Idempotent, like the charge: a repeated request (a double submit, the request again after
      // 3-D Secure) gets the same payment method back, so its charge is sent with the same
      // parameters under the same idempotency key (Stripe refuses a key reused with others, and
      // a card token is single use).
      let id = token;
      if (token.startsWith('tok_')) {
        const created = await this.stripe.paymentMethods.create(
          { type: 'card', card: { token } },
          { idempotencyKey: `pm_from_${token}` },
        );
        id = created.id;
      }
      const method = await this.stripe.paymentMethods.attach(
        id,
        { customer: customerRef },
        { idempotencyKey: `attach_${id}_${customerRef}` },
      );
      const card = method.card;
      return {
        paymentMethodRef: method.id,
        card: {
          brand: card?.brand ?? 'unknown',
          last4: card?.last4 ?? '0000',
          expMonth: card?.exp_month ?? 1,
          expYear: card?.exp_year ?? 1970,
        },
      };
    } catch (error) {
      translate(error);
    }
  }

  async detachCard(paymentMethodRef: string): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(paymentMethodRef);
    } catch (error) {
      translate(error);
    }
  }

  async charge(input: TChargeInput): Promise<TPayment> {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer: input.customerRef,
          payment_method: input.paymentMethodRef,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          off_session: input.offSession,
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === 'requires_payment_method') {
        const failure = intent.last_payment_error;
        throw new CardError(
          failure ? cardErrorCode(failure) : 'card_declined',
          failure?.message ?? 'Your card was declined.',
          intent.id,
        );
      }
      return toPayment(intent);
    } catch (error) {
      if (error instanceof CardError) throw error;
      translate(error);
    }
  }

  async retrievePayment(id: string): Promise<TPayment | null> {
    try {
      return toPayment(await this.stripe.paymentIntents.retrieve(id));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      translate(error);
    }
  }

  async cancelPayment(id: string): Promise<TPayment | null> {
    try {
      return toPayment(await this.stripe.paymentIntents.cancel(id));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        if (error.statusCode === 404) return null;
        // Succeeded (or already canceled) before this call: say how it ended.
        if (error.code === 'payment_intent_unexpected_state') return this.retrievePayment(id);
      }
      translate(error);
    }
  }

  /** Verifies a webhook's signature (throws when it is wrong or stale) and answers the event. */
  verifyEvent(rawBody: Buffer | string, signature: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }
}
