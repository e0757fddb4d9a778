import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { intentOf } from './intent';
import { applyInvoicePayment } from './invoice-payment';
import { applyPlan } from './plan-change';
import { StripeProvider } from './stripe/provider';
import { applyPayoutEvent } from './stripe/refund-events';
import { ZWebhookAnswer } from '@air/shared/schemas/billing';
import { billingEvents } from '../../db/schema/billing';
import { AppError } from '../../lib/app-error';

/**
 * `POST /api/billing/webhook` (BILLING_PROVIDER=stripe): Stripe's events, signature verified with
 * STRIPE_WEBHOOK_SECRET over the raw body. Each event id is stored, so a replayed event is applied
 * once; applying a payment is itself keyed by the payment id.
 */
export async function registerWebhook(app: FastifyInstance): Promise<void> {
  if (!(app.billing.provider instanceof StripeProvider)) return;
  await app.register(async (scope) => {
    // The signature covers the exact bytes: keep the body raw in this scope only.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/billing/webhook',
      { schema: { tags: ['billing'], response: { 200: ZWebhookAnswer } } },
      async (request) => {
        const provider = app.billing.provider as StripeProvider;
        const signature = request.headers['stripe-signature'];
        let event: Stripe.Event;
        try {
          event = provider.verifyEvent(
            request.body as Buffer,
            typeof signature === 'string' ? signature : '',
          );
        } catch (error) {
          throw new AppError('bad_request', { cause: error });
        }
        const fresh = await app.db
          .insert(billingEvents)
          .values({ id: event.id, type: event.type })
          .onConflictDoNothing()
          .returning({ id: billingEvents.id });
        if (fresh.length === 0) return { received: true as const, duplicate: true };
        try {
          await applyEvent(app, provider, event);
        } catch (error) {
          // Not applied: forget the id so Stripe's retry applies it.
          await app.db.delete(billingEvents).where(eq(billingEvents.id, event.id));
          throw error;
        }
        return { received: true as const, duplicate: false };
      },
    );
  });
}

async function applyEvent(
  app: FastifyInstance,
  provider: StripeProvider,
  event: Stripe.Event,
): Promise<void> {
  if (await applyPayoutEvent(app.billing, provider, event)) return;
  if (event.type !== 'payment_intent.succeeded') return;
  // Re-read the payment from Stripe rather than trusting the event body's copy.
  const payment = await provider.retrievePayment(event.data.object.id);
  if (!payment || payment.status !== 'succeeded') return;
  const read = intentOf(payment.metadata);
  if (read?.action === 'plan') await applyPlan(app.billing, read.intent, payment, payment.amount);
  else if (read?.action === 'invoice') await applyInvoicePayment(app.billing, read.intent, payment);
}
