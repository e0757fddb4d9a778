import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { t } from '../../i18n';
import { AppError } from '../../lib/app-error';
import './messages';
import { confirmTwoFactor, disableTwoFactor, startTwoFactorSetup } from './service';
import { route } from '../../core/route';

/** The signed-in user (the guard already refused anything but a console session). */
function sessionUserId(request: FastifyRequest): string {
  if (request.auth?.kind !== 'session') throw new AppError('unauthenticated');
  return request.auth.userId;
}

/**
 * `PUT /api/user/2fa` and `POST /api/user/2fa/verify`: the signed-in user's own two-factor
 * settings. Console sessions only (an API key never changes how its owner signs in).
 */
const twoFactorRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guard = { preHandler: app.authorize({ permission: 'signed-in', sessionOnly: true }) };
  const tags = ['two-factor'];

  route(app, 'PUT /api/user/2fa', { ...guard, schema: { tags } }, async (request) => {
    const userId = sessionUserId(request);
    if (request.body['2fa_enabled']) {
      return { data: await startTwoFactorSetup(app, userId), message: t(request.locale, 'twofactor.scan') };
    }
    await disableTwoFactor(app, request, userId, request.body.code);
    return { data: { '2fa_enabled': false }, message: t(request.locale, 'twofactor.disabled') };
  });

  route(app, 'POST /api/user/2fa/verify', { ...guard, schema: { tags } }, async (request) => {
    const userId = sessionUserId(request);
    const backupCode = await confirmTwoFactor(app, userId, request.body.code);
    return { data: { backup_code: backupCode }, message: t(request.locale, 'twofactor.enabled') };
  });
};

export default twoFactorRoutes;
