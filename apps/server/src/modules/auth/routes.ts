import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { t } from '../../i18n';
import '../../i18n/identity';
import { requestPasswordReset, resetPassword, signInWithPassword, signInWithToken } from './service';
import { revokeSession } from './sessions';
import { roleIn } from '../membership/service';
import { takeSessionNotice } from '../identity/service';
import { openSession, userPayload } from './sign-in';
import { route } from '../../core/route';

/** The token of `Authorization: Bearer …`, or null. */
function bearerOf(header: string | undefined): string | null {
  return header ? (/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null) : null;
}

/** Sign-in, session check, sign-out, account switch and password reset (server contract section 3). */
const authRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const session = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(app, 'POST /api/auth', { schema: { tags } }, async (request) => {
    const { email, password, token } = request.body;
    if (token !== undefined) return { data: await signInWithToken(app, request, token) };
    if (!email)
      throw new AppError('validation', { messageKey: 'validation.email_required', inputError: 'email' });
    if (!password) {
      throw new AppError('validation', {
        messageKey: 'validation.password_required',
        inputError: 'password',
      });
    }
    return { data: await signInWithPassword(app, request, email, password) };
  });

  // The console's start-up check (again on every navigation): never 401, so a stale token simply
  // reads "not authenticated", saying why when a removal from the member's only account ended it.
  // A session moved to another account by a removal answers that once (`moved`).
  route(app, 'GET /api/auth', { schema: { tags } }, async (request) => {
    const auth = request.auth;
    if (auth?.kind !== 'session') {
      const token = auth === null ? bearerOf(request.headers.authorization) : null;
      const ending = token === null ? null : await app.sessionEnding(token);
      return {
        data: {
          authenticated: false as const,
          ...(ending && { ended: { reason: ending.reason, account_name: ending.accountName } }),
        },
      };
    }
    const notice = auth.hasNotice ? await takeSessionNotice(app.db, auth.sessionId) : undefined;
    if (auth.hasNotice) {
      // Every instance drops the cached flag, so the notice is not looked for again.
      await app.changes.publish({ kind: 'session', sessionId: auth.sessionId });
    }
    return {
      data: {
        authenticated: true as const,
        ...(await userPayload(app, auth.userId, auth.accountId)),
        ...(notice && { moved: { reason: notice.reason, account_name: notice.accountName } }),
      },
    };
  });

  route(app, 'DELETE /api/auth', { preHandler: session, schema: { tags } }, async (request) => {
    if (request.auth?.kind === 'session') await revokeSession(app, request.auth.sessionId);
    return { message: t(request.locale, 'auth.signed_out') };
  });

  route(app, 'POST /api/auth/switch', { preHandler: session, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    if (auth.kind !== 'session') throw new AppError('forbidden');
    const accountId = request.body.account;
    if (!(await roleIn(app.db, auth.userId, accountId))) throw new AppError('not_found');
    const data = await openSession(app, request, { door: 'session', userId: auth.userId, accountId });
    // The old token is replaced by the new one: end its session so it cannot linger.
    await revokeSession(app, auth.sessionId);
    return { data };
  });

  route(app, 'POST /api/auth/password/reset/request', { schema: { tags } }, async (request) => {
    await requestPasswordReset(app, request, request.body.email);
    return { message: t(request.locale, 'auth.reset_sent') };
  });

  route(app, 'POST /api/auth/password/reset', { schema: { tags } }, async (request) => {
    await resetPassword(app, request.body);
    return { message: t(request.locale, 'auth.password_reset') };
  });
};

export default authRoutes;
