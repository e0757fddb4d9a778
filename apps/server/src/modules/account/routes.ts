import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loadSubscription } from '../billing/service';
import { t } from '../../i18n';
import '../../i18n/identity';
import { accountPlanId } from '../membership/service';
import { assertPasswordConfirmed } from '../user/service';
import { closeAccount } from './close';
import { plansAnswer } from './plan';
import { profileOf, setProfile } from '../membership/service';
import { signUp } from './sign-up';
import { route } from '../../core/route';

/** Sign-up, the plan step and closing the account. */
const accountRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];
  const owner = app.authorize({ permission: 'owner', sessionOnly: true });
  const reader = app.authorize({ permission: 'signed-in', scope: 'account.read' });

  route(app, 'POST /api/account', { schema: { tags } }, async (request, reply) => {
    return reply.status(201).send({ data: await signUp(app, request, request.body) });
  });

  route(app, 'GET /api/account/plans', { preHandler: reader, schema: { tags } }, async (request) => ({
    data: await plansAnswer(app, request.auth!.accountId),
  }));

  route(app, 'GET /api/account/plan', { preHandler: reader, schema: { tags } }, async (request) => {
    const accountId = request.auth!.accountId;
    const subscription = await loadSubscription(app.db, accountId);
    return { data: { plan: await accountPlanId(app.db, accountId), status: subscription?.status ?? null } };
  });

  // The provider page's profile (issue 44 item 4): the owner writes it, the marketplace shows it.
  route(
    app,
    'GET /api/account/marketplace-profile',
    { preHandler: owner, schema: { tags } },
    async (request) => ({
      data: { profile: (await profileOf(app.db, request.auth!.accountId)) ?? '' },
    }),
  );

  route(
    app,
    'PUT /api/account/marketplace-profile',
    { preHandler: owner, schema: { tags } },
    async (request) => ({
      data: await setProfile(app.db, request.auth!.accountId, request.body.profile),
    }),
  );

  route(app, 'DELETE /api/account', { preHandler: owner, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    if (auth.kind !== 'session') throw new Error('unreachable: sessionOnly');
    await assertPasswordConfirmed(app, request, auth.userId, request.body.password, 'password');
    await closeAccount(app, auth.accountId, auth.sessionId);
    return { data: { signout: true }, message: t(request.locale, 'account.closed') };
  });
};

export default accountRoutes;
