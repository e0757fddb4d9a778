import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { permissionsFor } from '@air/shared/permissions';
import { ZIdParams } from '@air/shared/schemas/common';
import {
  ZInvitedSignUp,
  ZPasswordChange,
  ZPasswordConfirm,
  ZUserUpdate,
  ZVerifyEmail,
} from '@air/shared/schemas/user';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { t } from '../../i18n';
import '../auth/messages';
import type { TAuth } from '../../plugins/auth';
import { userPayload } from '../auth/sign-in';
import { assertPasswordConfirmed, changePassword } from './password';
import { acceptInvite, deleteSelf, removeMember, updateUser } from './service';
import { sendVerification, verifyEmail } from './verification';

type TSessionAuth = Extract<TAuth, { kind: 'session' }>;

function sessionOf(request: FastifyRequest): TSessionAuth {
  const auth = request.auth;
  if (auth?.kind !== 'session') throw new AppError('unauthenticated');
  return auth;
}

/** The signed-in user: profile, password, verification, deletion, and invited sign-up. */
const userRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });
  const admin = app.authorize({ permission: 'admin', sessionOnly: true });

  app.get('/user', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    return { data: await userPayload(app, auth.userId, auth.accountId) };
  });

  app.patch('/user', { preHandler: signedIn, schema: { tags, body: ZUserUpdate } }, async (request) => {
    const auth = sessionOf(request);
    await updateUser(app, request, auth, request.body);
    return {
      data: await userPayload(app, auth.userId, auth.accountId),
      message: t(request.locale, 'user.updated'),
    };
  });

  app.post('/user', { schema: { tags, body: ZInvitedSignUp } }, async (request, reply) => {
    return reply.status(201).send({ data: await acceptInvite(app, request, request.body) });
  });

  app.get('/user/permissions', { preHandler: signedIn, schema: { tags } }, async (request) => ({
    data: permissionsFor(sessionOf(request).role),
  }));

  app.put(
    '/user/password',
    { preHandler: signedIn, schema: { tags, body: ZPasswordChange } },
    async (request) => {
      const auth = sessionOf(request);
      await changePassword(app, request, auth, request.body);
      return {
        data: await userPayload(app, auth.userId, auth.accountId),
        message: t(request.locale, 'user.password_changed'),
      };
    },
  );

  // The link's token is the proof: no session needed (the link may open in another browser).
  app.post('/user/verify', { schema: { tags, body: ZVerifyEmail } }, async (request) => {
    const userId = await verifyEmail(app, request.body.token);
    const auth = request.auth;
    const data =
      auth?.kind === 'session' && auth.userId === userId
        ? await userPayload(app, userId, auth.accountId)
        : { verified: true };
    return { data, message: t(request.locale, 'user.verified') };
  });

  app.post('/user/verify/request', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    const [user] = await app.db.select().from(users).where(eq(users.id, auth.userId)).limit(1);
    if (!user) throw new AppError('unauthenticated');
    if (user.verified) throw new AppError('bad_request', { messageKey: 'error.already_verified' });
    // Caps re-sends per user (mail bombing); 429 with Retry-After past it.
    const keys = [`verify:${user.id}`];
    await app.attempts.assertAllowed(keys);
    await app.attempts.recordFailure(keys);
    await sendVerification(app, request, user);
    return { message: t(request.locale, 'user.verification_sent') };
  });

  app.delete('/user', { preHandler: signedIn, schema: { tags, body: ZPasswordConfirm } }, async (request) => {
    const auth = sessionOf(request);
    await assertPasswordConfirmed(app, request, auth.userId, request.body.password, 'password');
    await deleteSelf(app, auth.userId);
    return { data: { signout: true }, message: t(request.locale, 'user.deleted') };
  });

  app.delete('/user/:id', { preHandler: admin, schema: { tags, params: ZIdParams } }, async (request) => {
    const auth = sessionOf(request);
    await removeMember(app, auth.accountId, request.params.id);
    return {
      data: { signout: request.params.id === auth.userId },
      message: t(request.locale, 'user.deleted'),
    };
  });
};

export default userRoutes;
