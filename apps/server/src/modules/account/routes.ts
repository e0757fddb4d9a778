import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPlansAnswer, ZSignUp } from '@air/shared/schemas/account';
import { ZPlanState } from '@air/shared/schemas/billing';
import { ZEnvelope, ZSignOut } from '@air/shared/schemas/common';
import { ZSignInAnswer } from '@air/shared/schemas/auth';
import { ZPasswordConfirm } from '@air/shared/schemas/user';
import { loadSubscription } from '../billing/service';
import { t } from '../../i18n';
import '../../i18n/identity';
import { accountPlanId } from '../membership/service';
import { assertPasswordConfirmed } from '../user/service';
import { closeAccount } from './close';
import { plansAnswer } from './plan';
import { signUp } from './sign-up';

/** Sign-up, the plan step and closing the account. */
const accountRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];
  const owner = app.authorize({ permission: 'owner', sessionOnly: true });
  const reader = app.authorize({ permission: 'signed-in', scope: 'account.read' });

  app.post(
    '/account',
    { schema: { tags, body: ZSignUp, response: { 201: ZEnvelope(ZSignInAnswer) } } },
    async (request, reply) => {
      return reply.status(201).send({ data: await signUp(app, request, request.body) });
    },
  );

  app.get(
    '/account/plans',
    { preHandler: reader, schema: { tags, response: { 200: ZEnvelope(ZPlansAnswer) } } },
    async (request) => ({ data: await plansAnswer(app, request.auth!.accountId) }),
  );

  app.get(
    '/account/plan',
    { preHandler: reader, schema: { tags, response: { 200: ZEnvelope(ZPlanState) } } },
    async (request) => {
      const accountId = request.auth!.accountId;
      const subscription = await loadSubscription(app.db, accountId);
      return { data: { plan: await accountPlanId(app.db, accountId), status: subscription?.status ?? null } };
    },
  );

  app.delete(
    '/account',
    { preHandler: owner, schema: { tags, body: ZPasswordConfirm, response: { 200: ZEnvelope(ZSignOut) } } },
    async (request) => {
      const auth = request.auth!;
      if (auth.kind !== 'session') throw new Error('unreachable: sessionOnly');
      await assertPasswordConfirmed(app, request, auth.userId, request.body.password, 'password');
      await closeAccount(app, auth.accountId);
      return { data: { signout: true }, message: t(request.locale, 'account.closed') };
    },
  );
};

export default accountRoutes;
