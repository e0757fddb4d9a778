import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { permissionsFor } from '@air/shared/permissions';
import { AppError } from '../../lib/app-error';
import { t } from '../../i18n';
import '../../i18n/identity';
import type { TAuth } from '../../core/credentials';
import { userPayload } from '../auth/service';
import { userRecord } from '../identity/service';
import { keyIdentity } from '../keys/service';
import { assertPasswordConfirmed, changePassword } from './password';
import { acceptInvite, deleteSelf, updateUser } from './service';
import { sendVerification, verifyEmail } from './verification';
import { route } from '../../core/route';

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

  route(
    app,
    'GET /api/user',
    { preHandler: app.authorize({ permission: 'signed-in', scope: 'account.read' }), schema: { tags } },
    async (request) => {
      const auth = request.auth!;
      if (auth.kind === 'key') return { data: await keyIdentity(app, auth.accountId, auth.keyId) };
      return { data: await userPayload(app, auth.userId, auth.accountId) };
    },
  );

  route(app, 'PATCH /api/user', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    const { emailChangePending } = await updateUser(app, request, auth, request.body);
    return {
      data: await userPayload(app, auth.userId, auth.accountId),
      message: emailChangePending
        ? t(request.locale, 'user.email_change_sent', { email: emailChangePending })
        : t(request.locale, 'user.updated'),
    };
  });

  route(app, 'POST /api/user', { schema: { tags } }, async (request, reply) => {
    return reply.status(201).send({ data: await acceptInvite(app, request, request.body) });
  });

  route(app, 'GET /api/user/permissions', { preHandler: signedIn, schema: { tags } }, async (request) => ({
    data: permissionsFor(sessionOf(request).role),
  }));

  route(app, 'PUT /api/user/password', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    await changePassword(app, request, auth, request.body);
    return {
      data: await userPayload(app, auth.userId, auth.accountId),
      message: t(request.locale, 'user.password_changed'),
    };
  });

  // The link's token is the proof: no session needed (the link may open in another browser).
  route(app, 'POST /api/user/verify', { schema: { tags } }, async (request) => {
    const userId = await verifyEmail(app, request.body.token);
    const auth = request.auth;
    const data =
      auth?.kind === 'session' && auth.userId === userId
        ? await userPayload(app, userId, auth.accountId)
        : { verified: true as const };
    return { data, message: t(request.locale, 'user.verified') };
  });

  route(app, 'POST /api/user/verify/request', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    const user = await userRecord(app.db, auth.userId);
    if (!user) throw new AppError('unauthenticated');
    if (user.verified) throw new AppError('bad_request', { messageKey: 'error.already_verified' });
    // Caps re-sends per user (mail bombing); 429 with Retry-After past it.
    const keys = [`verify:${user.id}`];
    await app.attempts.reserve(keys);
    await sendVerification(app, request, user);
    return { message: t(request.locale, 'user.verification_sent') };
  });

  route(app, 'DELETE /api/user', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    await assertPasswordConfirmed(app, request, auth.userId, request.body.password, 'password');
    await deleteSelf(app, auth.userId);
    return { data: { signout: true }, message: t(request.locale, 'user.deleted') };
  });
};

export default userRoutes;
