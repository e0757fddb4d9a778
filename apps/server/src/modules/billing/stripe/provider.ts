import Stripe from 'stripe';
import { CARD_ERROR_CODES, type TCardErrorCode } from '@air/shared/schemas/billing';
import {
  CardError,
  ProcessorError,
  type TBillingProvider,
  type TCardDetails,
  type TChargeInput,
  type TInvoiceChargeInput,
  type TPayment,
  type TPaymentStatus,
  type TRefundInput,
} from '../provider';
import { StripeConnect } from './connect';

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

/** The PaymentIntent of a Stripe invoice (expanded in the answer), if it has one. */
function invoiceIntent(invoice: Stripe.Invoice): Stripe.PaymentIntent | null {
  for (const entry of invoice.payments?.data ?? []) {
    const intent = entry.payment?.payment_intent;
    if (intent && typeof intent === 'object') return intent;
  }
  return null;
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
  readonly connect: StripeConnect;

  constructor(config: TStripeConfig, endpoint: TStripeEndpoint = {}) {
    this.publishableKey = config.publishableKey;
    this.webhookSecret = config.webhookSecret;
    this.stripe = new Stripe(config.secretKey, { maxNetworkRetries: 1, timeout: 20_000, ...endpoint });
    this.connect = new StripeConnect(this.stripe);
  }

  /** A refund of the invoice's PaymentIntent (part or all of it), under the billing module's key. */
  async refund(input: TRefundInput): Promise<string> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.paymentRef,
          amount: input.amount,
          reason: 'requested_by_customer',
          metadata: { air_reason: input.reason.slice(0, 500) },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return refund.id;
    } catch (error) {
      translate(error);
    }
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

  /**
   * A renewal invoice as a Stripe invoice: created as a draft with one invoice item per line
   * (idempotent keys named by AIR's invoice), finalized, its PaymentIntent given the charge's
   * metadata (so the webhook and the 3-D Secure return know what it pays), then paid off session
   * with the card on file. A dunning retry finds the same Stripe invoice by its metadata (Stripe
   * forgets idempotency keys after a day) and pays it again.
   */
  async chargeInvoice(input: TInvoiceChargeInput): Promise<TPayment> {
    const key = `air_invoice_${input.invoiceId}`;
    try {
      let invoice = await this.findInvoice(input.customerRef, input.invoiceId);
      if (!invoice) {
        invoice = await this.stripe.invoices.create(
          {
            customer: input.customerRef,
            currency: input.currency,
            collection_method: 'charge_automatically',
            auto_advance: false,
            pending_invoice_items_behavior: 'exclude',
            description: input.description,
            metadata: { ...input.metadata, air_invoice_id: input.invoiceId },
          },
          { idempotencyKey: key },
        );
      }
      if (invoice.status === 'draft') {
        // Also a draft a crash left half-filled: the items go again under their own keys.
        for (const [index, line] of input.lines.entries()) {
          await this.stripe.invoiceItems.create(
            {
              customer: input.customerRef,
              invoice: invoice.id,
              amount: line.amount,
              currency: input.currency,
              description: line.description,
              metadata: { air_invoice_id: input.invoiceId, line: String(index) },
            },
            { idempotencyKey: `${key}_line_${index}` },
          );
        }
        invoice = await this.stripe.invoices.finalizeInvoice(
          invoice.id,
          { auto_advance: false, expand: ['payments.data.payment.payment_intent'] },
          { idempotencyKey: `${key}_finalize` },
        );
        const intent = invoiceIntent(invoice);
        if (intent)
          await this.stripe.paymentIntents.update(
            intent.id,
            { metadata: input.metadata },
            { idempotencyKey: `${key}_intent_metadata` },
          );
      }
      if (invoice.status !== 'paid') {
        invoice = await this.stripe.invoices.pay(
          invoice.id,
          {
            payment_method: input.paymentMethodRef,
            off_session: input.offSession,
            expand: ['payments.data.payment.payment_intent'],
          },
          { idempotencyKey: input.idempotencyKey },
        );
      }
      const intent = invoiceIntent(invoice);
      if (!intent) throw new ProcessorError(`Stripe invoice ${invoice.id} has no payment`);
      // The charge's metadata, as on a PaymentIntent AIR creates itself.
      return { ...toPayment(intent), metadata: { ...intent.metadata, ...input.metadata } };
    } catch (error) {
      if (error instanceof CardError || error instanceof ProcessorError) throw error;
      translate(error);
    }
  }

  async closeInvoice(customerRef: string, invoiceId: string, paidBy: string | null): Promise<void> {
    try {
      const invoice = await this.findInvoice(customerRef, invoiceId);
      if (!invoice?.id) return;
      const key = `air_invoice_${invoiceId}_close`;
      if (invoice.status === 'draft') {
        // A renewal that crashed before finalizing: nobody can pay a draft, it just goes.
        await this.stripe.invoices.del(invoice.id);
      } else if (invoice.status === 'open') {
        if (paidBy !== null && invoiceIntent(invoice)?.id === paidBy) return;
        if (paidBy === null)
          await this.stripe.invoices.markUncollectible(invoice.id, {}, { idempotencyKey: key });
        else await this.stripe.invoices.voidInvoice(invoice.id, {}, { idempotencyKey: key });
      }
    } catch (error) {
      if (error instanceof ProcessorError) throw error;
      translate(error);
    }
  }

  private async findInvoice(customerRef: string, invoiceId: string): Promise<Stripe.Invoice | null> {
    const list = await this.stripe.invoices.list({
      customer: customerRef,
      limit: 20,
      expand: ['data.payments.data.payment.payment_intent'],
    });
    return list.data.find((invoice) => invoice.metadata?.air_invoice_id === invoiceId) ?? null;
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
