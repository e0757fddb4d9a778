import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPlanChoice, ZSignUp } from '@air/shared/schemas/account';
import { ZPasswordConfirm } from '@air/shared/schemas/user';
import { subscriptions } from '../../db/schema';
import { t } from '../../i18n';
import '../auth/messages';
import { userPayload } from '../auth/sign-in';
import { assertPasswordConfirmed } from '../user/password';
import { closeAccount } from './close';
import { choosePlan, currentPlanId, plansAnswer } from './plan';
import { signUp } from './sign-up';

/** Sign-up, the plan step and closing the account. */
const accountRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });
  const owner = app.authorize({ permission: 'owner', sessionOnly: true });
  const verifiedOwner = app.authorize({ permission: 'owner', sessionOnly: true, verified: true });

  app.post('/account', { schema: { tags, body: ZSignUp } }, async (request, reply) => {
    return reply.status(201).send({ data: await signUp(app, request, request.body) });
  });

  app.get('/account/plans', { preHandler: signedIn, schema: { tags } }, async (request) => ({
    data: await plansAnswer(app, request.auth!.accountId),
  }));

  app.get('/account/plan', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const accountId = request.auth!.accountId;
    const [subscription] = await app.db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId))
      .limit(1);
    return { data: { plan: await currentPlanId(app.db, accountId), status: subscription?.status ?? null } };
  });

  const savePlan = async (request: {
    auth: { kind: string; accountId: string; userId?: string } | null;
    body: { plan: string };
    locale: string;
  }) => {
    const auth = request.auth!;
    await choosePlan(app, auth.accountId, request.body.plan);
    const data =
      auth.kind === 'session' && auth.userId
        ? await userPayload(app, auth.userId, auth.accountId)
        : undefined;
    return { data, message: t(request.locale, 'account.plan_saved') };
  };
  app.post('/account/plan', { preHandler: verifiedOwner, schema: { tags, body: ZPlanChoice } }, savePlan);
  app.patch('/account/plan', { preHandler: verifiedOwner, schema: { tags, body: ZPlanChoice } }, savePlan);

  app.delete('/account', { preHandler: owner, schema: { tags, body: ZPasswordConfirm } }, async (request) => {
    const auth = request.auth!;
    if (auth.kind !== 'session') throw new Error('unreachable: sessionOnly');
    await assertPasswordConfirmed(app, request, auth.userId, request.body.password, 'password');
    await closeAccount(app, auth.accountId);
    return { data: { signout: true }, message: t(request.locale, 'account.closed') };
  });
};

export default accountRoutes;
