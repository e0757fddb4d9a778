import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import './messages';
import { startQuotaWarnings } from './quota-warnings';
import { requestLog } from './request-log';
import { accountUsage, flushUsage, gatewayViewOf, limitsState, overview, usageInsight } from './service';
import { route } from '../../core/route';
import { billingCurrencyOf } from '../billing/service';

/**
 * `GET /api/account/usage` (this period's totals), `/usage/insight` (the usage page) and
 * `/usage/log` (the request log), `/usage/limits` (the limits reached), `/overview` (the dashboard): any user of the account, or a key with usage.read or account.read.
 */
const usageRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const reader = app.authorize({ permission: 'user', scope: ['usage.read', 'account.read'] });
  const tags = ['account'];
  route(app, 'GET /api/account/usage', { preValidation: reader, schema: { tags } }, async (request) => ({
    data: await accountUsage(app, gatewayViewOf(app.server), request.auth!.accountId),
  }));
  route(
    app,
    'GET /api/account/usage/insight',
    { preValidation: reader, schema: { tags } },
    async (request) => ({
      data: await usageInsight(app, gatewayViewOf(app.server), request.auth!.accountId, request.query),
    }),
  );
  route(app, 'GET /api/account/usage/log', { preValidation: reader, schema: { tags } }, async (request) => {
    await flushUsage(gatewayViewOf(app.server));
    return { data: await requestLog(app.db, request.auth!.accountId, request.query) };
  });
  // The limits reached this period (the console's "calls are refused" state), any member.
  route(
    app,
    'GET /api/account/usage/limits',
    { preValidation: reader, schema: { tags } },
    async (request) => ({
      data: await limitsState(
        app,
        gatewayViewOf(app.server),
        request.auth!.accountId,
        (await billingCurrencyOf(app.db, app.plans, request.auth!.accountId)).currency,
      ),
    }),
  );
  // The dashboard: any member (a user-role member's dashboard reads only this and what it may).
  route(app, 'GET /api/account/overview', { preValidation: reader, schema: { tags } }, async (request) => ({
    data: await overview(app, gatewayViewOf(app.server), app.server, request.auth!.accountId),
  }));
  startQuotaWarnings(app);
};

export default usageRoutes;
