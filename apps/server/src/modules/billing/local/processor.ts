import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import {
  localCardTokens,
  localCustomers,
  localPaymentIntents,
  localPaymentMethods,
  type TLocalCardBehaviour,
} from '../../../db/schema/billing';
import {
  CardError,
  ProcessorError,
  type TBillingProvider,
  type TRefundInput,
  type TChargeInput,
  type TPayment,
  type TPaymentStatus,
} from '../provider';
import { cardBrand } from '@air/shared/cards';
import { behaviourOf } from './cards';

function objectId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

const MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  payment_intent_authentication_failure: 'We are unable to authenticate your payment method.',
} as const;

type TIntentRow = typeof localPaymentIntents.$inferSelect;

function toPayment(row: TIntentRow): TPayment {
  return {
    id: row.id,
    status: row.status as TPaymentStatus,
    clientSecret: row.status === 'requires_action' ? row.clientSecret : null,
    amount: row.amount,
    currency: row.currency,
    customerRef: row.customerId,
    metadata: row.metadata,
    errorCode: row.errorCode,
  };
}

/** What a charge does with a card of this behaviour. */
function outcome(
  behaviour: TLocalCardBehaviour,
  authenticated: boolean,
  offSession: boolean,
): { status: TPaymentStatus; errorCode: keyof typeof MESSAGES | null } {
  switch (behaviour) {
    case 'decline':
    case 'attach_then_fail':
      return { status: 'requires_payment_method', errorCode: 'card_declined' };
    case 'insufficient_funds':
      return { status: 'requires_payment_method', errorCode: 'insufficient_funds' };
    case 'authenticate':
      if (authenticated) return { status: 'succeeded', errorCode: null };
      return offSession
        ? { status: 'requires_payment_method', errorCode: 'payment_intent_authentication_failure' }
        : { status: 'requires_action', errorCode: null };
    default:
      return { status: 'succeeded', errorCode: null };
  }
}

/**
 * The embedded card processor (BILLING_PROVIDER=local): customers, card tokens, payment methods
 * and payment intents in the database, behaving like the card network's test mode. No network.
 */
export class LocalProcessor implements TBillingProvider {
  readonly name = 'local' as const;
  readonly publishableKey = null;

  constructor(private readonly db: TDb) {}

  /**
   * The card widget's token call: the fields were checked by the route (checkCardFields). The token
   * is bound to the account whose session made it: only that account may attach it.
   */
  async createToken(input: { number: string; exp_month: number; exp_year: number }, accountId: string) {
    const digits = input.number.replace(/[\s-]/g, '');
    const [row] = await this.db
      .insert(localCardTokens)
      .values({
        id: objectId('tok'),
        brand: cardBrand(digits),
        last4: digits.slice(-4),
        expMonth: input.exp_month,
        expYear: input.exp_year,
        behaviour: behaviourOf(digits),
        accountId,
      })
      .returning();
    return row!;
  }

  async createCustomer(input: { accountId: string; name: string }): Promise<string> {
    const id = objectId('cus');
    await this.db.insert(localCustomers).values({ id, name: input.name });
    return id;
  }

  async attachCard(customerRef: string, token: string, accountId: string) {
    const [tok] = await this.db
      .select()
      .from(localCardTokens)
      .where(and(eq(localCardTokens.id, token), eq(localCardTokens.accountId, accountId)))
      .limit(1);
    // Another account's token is no token at all (the same answer as an unknown one).
    if (!tok) throw new CardError('card_declined', 'No such token.');
    if (tok.behaviour === 'decline') throw new CardError('card_declined', MESSAGES.card_declined);
    const card = { brand: tok.brand, last4: tok.last4, expMonth: tok.expMonth, expYear: tok.expYear };
    if (tok.paymentMethodId) return { paymentMethodRef: tok.paymentMethodId, card };
    const id = objectId('pm');
    // Single use: only the first attach turns the token into a payment method.
    const claimed = await this.db
      .update(localCardTokens)
      .set({ paymentMethodId: id })
      .where(and(eq(localCardTokens.id, token), isNull(localCardTokens.paymentMethodId)))
      .returning({ id: localCardTokens.id });
    if (claimed.length === 0) {
      const [again] = await this.db.select().from(localCardTokens).where(eq(localCardTokens.id, token));
      return { paymentMethodRef: again!.paymentMethodId!, card };
    }
    await this.db.insert(localPaymentMethods).values({
      id,
      customerId: customerRef,
      brand: tok.brand,
      last4: tok.last4,
      expMonth: tok.expMonth,
      expYear: tok.expYear,
      behaviour: tok.behaviour,
    });
    return { paymentMethodRef: id, card };
  }

  async detachCard(paymentMethodRef: string): Promise<void> {
    await this.db
      .update(localPaymentMethods)
      .set({ detachedAt: new Date() })
      .where(eq(localPaymentMethods.id, paymentMethodRef));
  }

  async charge(input: TChargeInput): Promise<TPayment> {
    const [existing] = await this.db
      .select()
      .from(localPaymentIntents)
      .where(eq(localPaymentIntents.idempotencyKey, input.idempotencyKey))
      .limit(1);
    if (existing) return this.answer(existing);
    const [method] = await this.db
      .select()
      .from(localPaymentMethods)
      .where(
        and(
          eq(localPaymentMethods.id, input.paymentMethodRef),
          eq(localPaymentMethods.customerId, input.customerRef),
        ),
      )
      .limit(1);
    if (!method || method.detachedAt) throw new CardError('card_declined', MESSAGES.card_declined);
    const result = outcome(method.behaviour, method.authenticated !== null, input.offSession);
    const id = objectId('pi');
    const [row] = await this.db
      .insert(localPaymentIntents)
      .values({
        id,
        clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        idempotencyKey: input.idempotencyKey,
        customerId: input.customerRef,
        paymentMethodId: method.id,
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        status: result.status,
        errorCode: result.errorCode,
        metadata: input.metadata,
      })
      .onConflictDoNothing({ target: localPaymentIntents.idempotencyKey })
      .returning();
    if (!row) {
      // A concurrent request with the same key won: answer its payment.
      const [winner] = await this.db
        .select()
        .from(localPaymentIntents)
        .where(eq(localPaymentIntents.idempotencyKey, input.idempotencyKey));
      return this.answer(winner!);
    }
    return this.answer(row);
  }

  private answer(row: TIntentRow): TPayment {
    if (row.status === 'requires_payment_method' && row.errorCode) {
      const code = row.errorCode as keyof typeof MESSAGES;
      throw new CardError(code, MESSAGES[code] ?? MESSAGES.card_declined, row.id);
    }
    return toPayment(row);
  }

  async retrievePayment(id: string): Promise<TPayment | null> {
    const [row] = await this.db
      .select()
      .from(localPaymentIntents)
      .where(eq(localPaymentIntents.id, id))
      .limit(1);
    return row ? toPayment(row) : null;
  }

  /**
   * A test-mode refund: nothing leaves a bank, so the payment is only checked (it succeeded, the
   * amount fits). The refund's id follows from its idempotency key, so a repeated request names
   * the same refund (and the billing module applies it once).
   */
  async refund(input: TRefundInput): Promise<string> {
    const payment = await this.retrievePayment(input.paymentRef);
    if (payment?.status !== 'succeeded' || input.amount <= 0 || input.amount > payment.amount)
      throw new ProcessorError(`payment ${input.paymentRef} cannot be refunded ${input.amount}`);
    return `re_local_${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
  }

  async cancelPayment(id: string): Promise<TPayment | null> {
    const [canceled] = await this.db
      .update(localPaymentIntents)
      .set({ status: 'canceled', errorCode: null })
      .where(
        and(
          eq(localPaymentIntents.id, id),
          inArray(localPaymentIntents.status, ['requires_action', 'requires_payment_method']),
        ),
      )
      .returning();
    return canceled ? toPayment(canceled) : this.retrievePayment(id);
  }

  /**
   * The browser's 3-D Secure step (the "Authenticate payment" dialog). Complete: the payment
   * succeeds and the card counts as authenticated for later charges. Fail: the payment fails.
   */
  async confirm(
    clientSecret: string,
    result: 'complete' | 'fail',
    accountId: string,
  ): Promise<TPayment | null> {
    const [row] = await this.db
      .select()
      .from(localPaymentIntents)
      .where(eq(localPaymentIntents.clientSecret, clientSecret))
      .limit(1);
    if (!row || row.metadata.account_id !== accountId) return null;
    if (row.status !== 'requires_action') return toPayment(row);
    if (result === 'fail') {
      const [failed] = await this.db
        .update(localPaymentIntents)
        .set({ status: 'requires_payment_method', errorCode: 'payment_intent_authentication_failure' })
        .where(and(eq(localPaymentIntents.id, row.id), eq(localPaymentIntents.status, 'requires_action')))
        .returning();
      return toPayment(failed ?? row);
    }
    await this.db
      .update(localPaymentMethods)
      .set({ authenticated: new Date() })
      .where(eq(localPaymentMethods.id, row.paymentMethodId));
    const [done] = await this.db
      .update(localPaymentIntents)
      .set({ status: 'succeeded', errorCode: null })
      .where(and(eq(localPaymentIntents.id, row.id), eq(localPaymentIntents.status, 'requires_action')))
      .returning();
    return toPayment(done ?? row);
  }

  /** Payments of the processor for a customer (tests count charges). */
  async paymentsOf(customerRef: string): Promise<TPayment[]> {
    const rows = await this.db
      .select()
      .from(localPaymentIntents)
      .where(eq(localPaymentIntents.customerId, customerRef));
    return rows.map(toPayment);
  }
}
