import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZUsageList } from '@air/shared/schemas/usage';
import {
  ZUsageInsight,
  ZUsageInsightQuery,
  ZUsageLog,
  ZUsageLogQuery,
} from '@air/shared/schemas/usage-insight';
import './messages';
import { startQuotaWarnings } from './quota-warnings';
import { requestLog } from './request-log';
import { accountUsage, flushUsage, gatewayViewOf, usageInsight } from './service';

/**
 * `GET /api/account/usage` (this period's totals), `/usage/insight` (the usage page) and
 * `/usage/log` (the request log): any user of the account, or a key with usage.read or account.read.
 */
const usageRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const reader = app.authorize({ permission: 'user', scope: ['usage.read', 'account.read'] });
  const tags = ['account'];
  app.get(
    '/account/usage',
    { preValidation: reader, schema: { tags, response: { 200: ZEnvelope(ZUsageList) } } },
    async (request) => ({
      data: await accountUsage(app, gatewayViewOf(app.server), request.auth!.accountId),
    }),
  );
  app.get(
    '/account/usage/insight',
    {
      preValidation: reader,
      schema: { tags, querystring: ZUsageInsightQuery, response: { 200: ZEnvelope(ZUsageInsight) } },
    },
    async (request) => ({
      data: await usageInsight(app, gatewayViewOf(app.server), request.auth!.accountId, request.query),
    }),
  );
  app.get(
    '/account/usage/log',
    {
      preValidation: reader,
      schema: { tags, querystring: ZUsageLogQuery, response: { 200: ZEnvelope(ZUsageLog) } },
    },
    async (request) => {
      await flushUsage(gatewayViewOf(app.server));
      return { data: await requestLog(app.db, request.auth!.accountId, request.query) };
    },
  );
  startQuotaWarnings(app);
};

export default usageRoutes;
