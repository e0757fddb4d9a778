import type { FastifyPluginAsync } from 'fastify';
import { earningsOf } from './earnings';
import { setSpendLimit } from './spend-limit';
import { documentedAs } from '../../core/openapi';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZClockAdvance,
  ZClockAnswer,
  ZInvoicePdfParams,
  ZInvoicePdfQuery,
} from '@air/shared/schemas/billing';
import { checkCardFields } from '@air/shared/cards';
import { ZEnvelope, ZErrorBody } from '@air/shared/schemas/common';
import { updateCard } from './card';
import { authorizeInvoice } from './invoice-payment';
import { cardAppError } from './errors';
import {
  billToOf,
  findInvoice,
  invoiceWire,
  listInvoices,
  pdfTokenValid,
  renderInvoicePdf,
} from './invoices';
import { LocalProcessor } from './local/processor';
import { CardError } from './provider';
import { loadCard } from './records';
import { subscriptionWire } from './subscription';
import { previewPlanChange } from './plan-preview';
import { advanceClock, billingNow } from './clock';
import { runDueRenewals } from './renewals';
import { AppError } from '../../lib/app-error';
import { isLocalCaller } from '../../lib/local-caller';
import { paymentActionAnswer, planChangeRoute } from './plan-route';
import { registerWebhook } from './webhook';
import { registerPayoutRoutes } from './payouts/routes';
import { runDuePayouts } from './payouts/run';
import { route } from '../../core/route';

/**
 * Billing calls of the console (decision 007): subscription, invoices and their PDF, the card,
 * the upgrade page, and the local processor's browser-side calls (card token, 3-D Secure).
 * The plan calls (`/account/plan`) live in the account module and call the same plan change.
 */
const billingRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });
  const owner = app.authorize({ permission: 'owner', sessionOnly: true });
  const verifiedOwner = app.authorize({ permission: 'owner', sessionOnly: true, verified: true });
  const local = app.billing.provider instanceof LocalProcessor ? app.billing.provider : null;

  route(app, 'GET /api/billing/config', { schema: { tags } }, async () => ({
    data: { provider: app.billing.provider.name, publishable_key: app.billing.provider.publishableKey },
  }));

  route(
    app,
    'GET /api/account/subscription',
    { preHandler: app.authorize({ permission: 'owner', scope: 'account.read' }), schema: { tags } },
    async (request) => ({ data: await subscriptionWire(app.billing, request.auth!.accountId) }),
  );

  // What a plan change would charge, before the button (read-only, the change's own arithmetic).
  route(app, 'GET /api/account/plan/preview', { preHandler: owner, schema: { tags } }, async (request) => ({
    data: await previewPlanChange(app.billing, request.auth!.accountId, request.query.plan),
  }));

  route(app, 'GET /api/account/invoice', { preHandler: owner, schema: { tags } }, async (request) => {
    const page = await listInvoices(app.db, request.auth!.accountId, request.query);
    return {
      data: {
        items: page.rows.map((row) => invoiceWire(row, app.config.secret)),
        next_cursor: page.next_cursor,
      },
    };
  });

  route(app, 'GET /api/account/earnings', { preHandler: owner, schema: { tags } }, async (request) => ({
    data: await earningsOf(app.billing, request.auth!.accountId),
  }));

  // The caller's cap on marketplace spend (contract 5a): the account's owner or an admin.
  route(
    app,
    'PATCH /api/account/spend-limit',
    { preHandler: app.authorize({ permission: 'admin', sessionOnly: true }), schema: { tags } },
    async (request) => ({
      data: await setSpendLimit(app.billing, request.auth!.accountId, request.body.marketplace_spend_limit),
    }),
  );

  // Opened in a new tab: authorised by the signed token of `invoice_pdf`, or by the owner's session.
  app.get(
    '/account/invoice/:id/pdf',
    {
      schema: { tags, params: ZInvoicePdfParams, querystring: ZInvoicePdfQuery },
      config: {
        swaggerTransform: documentedAs({
          tags,
          operationId: 'getInvoicePdf',
          summary: 'One invoice as a PDF (signed link or the owner session)',
          params: ZInvoicePdfParams,
          querystring: ZInvoicePdfQuery,
          response: {
            200: {
              description: 'The invoice as a PDF',
              content: { 'application/pdf': { schema: z.string() } },
            },
            // Signed link invalid and no owner session, or no such invoice: the console's error.
            '4XX': ZErrorBody,
          },
        }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { token } = request.query;
      let accountId: string | null = null;
      if (!token || !pdfTokenValid(app.config.secret, id, token)) {
        await owner.call(app, request, reply);
        if (reply.sent) return reply;
        accountId = request.auth!.accountId;
      }
      const invoice = await findInvoice(app.db, id, accountId);
      if (!invoice) throw new AppError('not_found');
      const pdf = await renderInvoicePdf(invoice, app.config.invoiceSeller, await billToOf(app.db, invoice));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${invoice.number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  route(app, 'GET /api/account/card', { preHandler: owner, schema: { tags } }, async (request) => {
    const card = await loadCard(app.db, request.auth!.accountId);
    return {
      data: card
        ? { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear }
        : null,
    };
  });

  route(app, 'PATCH /api/account/card', { preHandler: verifiedOwner, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    const accountId = auth.accountId;
    const outcome = await updateCard(app.billing, {
      accountId,
      actorUserId: auth.kind === 'session' ? auth.userId : null,
      token: request.body.token,
      payment: request.body.payment,
      idempotencyKey: request.body.idempotency_key,
      locale: request.locale,
    });
    if (outcome.kind === 'action') return paymentActionAnswer(outcome);
    const card = (await loadCard(app.db, accountId))!;
    return {
      data: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
      message: outcome.message,
    };
  });

  // A renewal waiting for the card holder's authentication (banner "Authorization needed").
  route(
    app,
    'POST /api/account/subscription/authorize',
    { preHandler: verifiedOwner, schema: { tags } },
    async (request) => {
      const accountId = request.auth!.accountId;
      const outcome = await authorizeInvoice(app.billing, {
        accountId,
        payment: request.body.payment,
        locale: request.locale,
      });
      if (outcome.kind === 'action') return paymentActionAnswer(outcome);
      return { data: await subscriptionWire(app.billing, accountId), message: outcome.message };
    },
  );

  const plan = planChangeRoute(app, tags);
  route(app, 'POST /api/account/upgrade', plan.options, plan.handler);
  // The sign-up plan step (POST) and the plan change (PATCH) are the same plan-change call (decision
  // 007); listed under the account in the API document, where the console looks for them.
  const accountPlan = planChangeRoute(app, ['account']);
  route(app, 'POST /api/account/plan', accountPlan.options, accountPlan.handler);
  route(app, 'PATCH /api/account/plan', accountPlan.options, accountPlan.handler);

  // The local processor's browser-side calls (Stripe.js does these against Stripe in stripe mode).
  route(app, 'POST /api/billing/local/token', { preHandler: signedIn, schema: { tags } }, async (request) => {
    if (!local) throw new AppError('not_found', { messageKey: 'billing.not_available' });
    const problem = checkCardFields(request.body, new Date());
    if (problem) throw cardAppError(new CardError(problem.problem, problem.problem), problem.field);
    const token = await local.createToken(request.body, request.auth!.accountId);
    return {
      data: {
        id: token.id,
        card: {
          brand: token.brand,
          last4: token.last4,
          exp_month: token.expMonth,
          exp_year: token.expYear,
        },
      },
    };
  });

  route(
    app,
    'POST /api/billing/local/confirm',
    { preHandler: signedIn, schema: { tags } },
    async (request) => {
      if (!local) throw new AppError('not_found', { messageKey: 'billing.not_available' });
      // Only the account the payment belongs to may confirm it; anyone else sees no such payment.
      const payment = await local.confirm(
        request.body.client_secret,
        request.body.outcome,
        request.auth!.accountId,
      );
      if (!payment) throw new AppError('not_found');
      if (payment.status !== 'succeeded') {
        throw cardAppError(
          new CardError('payment_intent_authentication_failure', 'authentication failed'),
          'payment',
        );
      }
      return { data: { payment_intent: { id: payment.id, status: payment.status } } };
    },
  );

  await registerWebhook(app);
  await registerPayoutRoutes(app);

  // The test clock (`npm run cli -- billing-clock advance 31d` calls this when a server runs).
  if (!app.config.isProduction) {
    app.post(
      '/dev/billing-clock',
      {
        schema: {
          tags: ['dev'],
          operationId: 'advanceBillingClock',
          summary: 'Move the billing clock forward (development only, from this machine)',
          body: ZClockAdvance,
          response: { 200: ZEnvelope(ZClockAnswer) },
        },
      },
      async (request) => {
        // A developer tool: only from this machine (the CLI), never through a proxy.
        if (!isLocalCaller(request.raw)) throw new AppError('not_found');
        const now =
          request.body.advance_ms > 0
            ? await advanceClock(app.db, request.body.advance_ms)
            : await billingNow(app.db);
        const renewed = await runDueRenewals(app.billing);
        const { paid } = await runDuePayouts(app.billing);
        return { data: { now: now.toISOString(), renewed, payouts: paid } };
      },
    );
  }
};

export default billingRoutes;
