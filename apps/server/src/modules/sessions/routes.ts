import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerMessages, t } from '../../i18n';
import { AppError } from '../../lib/app-error';
import { listSessions, signOutOtherSessions, signOutSession } from './service';
import { route } from '../../core/route';

registerMessages({
  en: {
    'sessions.signed_out': 'The session has been signed out',
    'sessions.others_signed_out': 'All other sessions have been signed out',
  },
  es: {
    'sessions.signed_out': 'Se ha cerrado la sesión',
    'sessions.others_signed_out': 'Se han cerrado todas las demás sesiones',
  },
});

function sessionOf(request: FastifyRequest): { userId: string; sessionId: string } {
  const auth = request.auth;
  if (auth?.kind !== 'session') throw new AppError('unauthenticated');
  return auth;
}

/** The signed-in user's own sessions: list, sign one out, sign out all the others. */
const sessionRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  const preHandler = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(app, 'GET /api/user/sessions', { preHandler, schema: { tags } }, async (request) => ({
    data: await listSessions(app, sessionOf(request)),
  }));

  route(app, 'DELETE /api/user/sessions', { preHandler, schema: { tags } }, async (request) => {
    const count = await signOutOtherSessions(app, sessionOf(request));
    return {
      data: { signed_out: count, signout: false },
      message: t(request.locale, 'sessions.others_signed_out'),
    };
  });

  route(app, 'DELETE /api/user/sessions/:id', { preHandler, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    await signOutSession(app, auth, request.params.id);
    return {
      data: { signed_out: 1, signout: request.params.id === auth.sessionId },
      message: t(request.locale, 'sessions.signed_out'),
    };
  });
};

export default sessionRoutes;
