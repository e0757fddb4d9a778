import type { FastifyInstance } from 'fastify';
import type { TPaymentActionRequired } from '@air/shared/schemas/billing';
import type { TRouteHandler } from '../../core/route';
import type { TBillingOutcome } from './charge';
import { changePlan } from './plan-change';
import { userPayload } from '../auth/service';

/** The answer that sends the console to 3-D Secure before the same request comes again. */
export function paymentActionAnswer(
  outcome: Extract<TBillingOutcome, { kind: 'action' }>,
): TPaymentActionRequired {
  return { requires_payment_action: true, client_secret: outcome.clientSecret, message: outcome.message };
}

/**
 * `POST/PATCH /api/account/plan` (the sign-up plan step and the plan change) and
 * `POST /api/account/upgrade`: one body, one answer, one handler (decision 007). Verified owners only.
 */
export function planChangeRoute(app: FastifyInstance, tags: string[]) {
  const handler: TRouteHandler<'POST /api/account/upgrade'> = async (request) => {
    const auth = request.auth!;
    const actorUserId = auth.kind === 'session' ? auth.userId : null;
    const outcome = await changePlan(app.billing, {
      accountId: auth.accountId,
      actorUserId,
      planId: request.body.plan,
      token: request.body.token,
      payment: request.body.payment,
      idempotencyKey: request.body.idempotency_key,
      locale: request.locale,
    });
    if (outcome.kind === 'action') return paymentActionAnswer(outcome);
    const data = auth.kind === 'session' ? await userPayload(app, auth.userId, auth.accountId) : undefined;
    return { data, message: outcome.message };
  };
  return {
    options: {
      preHandler: app.authorize({ permission: 'owner', sessionOnly: true, verified: true }),
      schema: { tags },
    },
    handler,
  };
}
