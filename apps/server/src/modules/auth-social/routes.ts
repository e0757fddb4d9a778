import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '@air/shared/schemas/common';
import { ZSocialCallbackQuery, ZSocialParams } from '@air/shared/schemas/social';
import { t } from '../../i18n';
import { documentedAs } from '../../core/openapi';
import { OidcClients, providerLabel } from '../../lib/oidc';
import { clearFlowCookie, readFlowCookie, setFlowCookie } from './flow-cookie';
import './messages';
import { finishSocialSignIn, type TSocialError } from './service';
import { route } from '../../core/route';

/**
 * Social sign-in over OpenID Connect (server contract section 3). The browser navigates to
 * `/api/auth/social/:provider`, is sent to the provider, comes back to the callback, and lands on
 * `/signin/social?provider=…&token=…` (or `&error=<message>`), whose page posts the token to
 * `POST /api/auth`. Every outcome of these browser routes is a redirect, never a JSON error, but
 * for a callback query its schema refuses (400, as every console call's bad input).
 */
const ZRedirect = z.null().describe('302 to /signin/social?provider=…&token=… (or &error=…)');
const startDocs = documentedAs({
  tags: ['auth'],
  operationId: 'startSocialSignIn',
  summary: "Starts social sign-in: redirects to the provider's sign-in page",
  params: ZSocialParams,
  response: { 302: ZRedirect },
});
const callbackDocs = documentedAs({
  tags: ['auth'],
  operationId: 'finishSocialSignIn',
  summary: "The provider's callback: redirects to the console with a one-time sign-in token",
  params: ZSocialParams,
  querystring: ZSocialCallbackQuery,
  // A query its schema refuses (a NUL character in `code`) is answered, not redirected.
  response: { 302: ZRedirect, 400: ZErrorBody.describe('Refused (code validation): a bad query') },
});

const socialRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { appUrl, secret } = app.config;
  const clients = new OidcClients(app.config.oidcProviders, appUrl, app.config.isProduction);
  const tags = ['auth'];
  // Only these routes read or set a cookie (the flow's): the parser lives in their scope.
  await app.register(fastifyCookie);

  function landing(provider: string, outcome: { token: string } | { error: string }): string {
    const url = new URL('/signin/social', appUrl);
    url.searchParams.set('provider', provider);
    if ('token' in outcome) url.searchParams.set('token', outcome.token);
    else url.searchParams.set('error', outcome.error);
    return url.href;
  }

  function failure(locale: string, provider: string, error: TSocialError): string {
    return landing(provider, {
      error: t(locale, `social.error.${error}`, { provider: providerLabel(provider) }),
    });
  }

  route(app, 'GET /api/auth/providers', { schema: { tags } }, async () => ({ data: clients.list() }));

  // Params are checked by hand (not by schema) so that a bad name still ends in a redirect.
  app.get('/auth/social/:provider', { config: { swaggerTransform: startDocs } }, async (request, reply) => {
    const parsed = ZSocialParams.safeParse(request.params);
    const provider = parsed.success ? parsed.data.provider : '';
    if (!parsed.success || !clients.has(provider)) {
      return reply.redirect(failure(request.locale, provider, 'unknown_provider'));
    }
    try {
      const { url, flow } = await clients.start(provider);
      setFlowCookie(reply, secret, appUrl, flow);
      return reply.redirect(url.href);
    } catch (error) {
      request.log.warn({ err: error, provider }, 'social sign-in could not reach the provider');
      return reply.redirect(failure(request.locale, provider, 'provider'));
    }
  });

  app.get(
    '/auth/social/:provider/callback',
    { config: { swaggerTransform: callbackDocs } },
    async (request, reply) => {
      const parsed = ZSocialParams.safeParse(request.params);
      const provider = parsed.success ? parsed.data.provider : '';
      clearFlowCookie(reply, appUrl);
      if (!parsed.success || !clients.has(provider)) {
        return reply.redirect(failure(request.locale, provider, 'unknown_provider'));
      }
      const query = ZSocialCallbackQuery.safeParse(request.query);
      const flow = readFlowCookie(request, secret, provider);
      if (!flow) return reply.redirect(failure(request.locale, provider, 'expired'));
      if (!query.success || query.data.error || !query.data.code) {
        return reply.redirect(failure(request.locale, provider, 'provider'));
      }
      const outcome = await finishSocialSignIn(app, clients, flow, new URL(appUrl + request.url));
      if ('token' in outcome) return reply.redirect(landing(provider, outcome));
      return reply.redirect(failure(request.locale, provider, outcome.error));
    },
  );
};

export default socialRoutes;
