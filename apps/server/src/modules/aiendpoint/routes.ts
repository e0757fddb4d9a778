import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { t } from '../../i18n';
import { AppError } from '../../lib/app-error';
import './messages';
import { actorOf } from '../activity/service';
import {
  createEndpoint,
  deleteEndpoints,
  endpointTools,
  endpointUpstreams,
  getEndpoint,
  listEndpoints,
  updateEndpoint,
  upstreamHealthOf,
} from './service';
import { route } from '../../core/route';

const ZUuid = z.uuid();

/** `a,b,c` → ids; anything that is not a list of ids is simply not found. */
function parseIds(text: string): string[] {
  const ids = text.split(',').map((id) => id.trim());
  if (ids.length > 500 || !ids.every((id) => ZUuid.safeParse(id).success)) throw new AppError('not_found');
  return ids;
}

/**
 * The registry of the signed-in account (server contract section 5). Any member of the account may
 * read and write its endpoints (docs/decisions/004-registry-permissions.md); an API key needs
 * `aiendpoint.read` to read and `aiendpoint.write` to write.
 */
const aiEndpointRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Checked before the body is validated: a caller who may not write learns nothing from 400s.
  const read = { preValidation: app.authorize({ permission: 'user', scope: 'aiendpoint.read' }) };
  const write = {
    preValidation: app.authorize({ permission: 'user', scope: 'aiendpoint.write', verified: true }),
  };
  const tags = ['registry'];

  route(app, 'GET /api/aiendpoint', { ...read, schema: { tags } }, async (request) => ({
    data: await listEndpoints(app, request.auth!.accountId),
  }));

  route(app, 'GET /api/aiendpoint/:id', { ...read, schema: { tags } }, async (request) => ({
    data: await getEndpoint(app, request.auth!.accountId, request.params.id),
  }));

  // The owner's live view of the routing (contract 6a): each upstream's circuit and last hour.
  route(app, 'GET /api/aiendpoint/:id/upstreams', { ...read, schema: { tags } }, async (request) => {
    const { id, routed, upstreams } = await endpointUpstreams(
      app,
      request.auth!.accountId,
      request.params.id,
    );
    return { data: { routed, upstreams: upstreamHealthOf(app.server, id, upstreams) } };
  });

  // An MCP endpoint's tools (contract 6d), read from its server on demand.
  route(app, 'GET /api/aiendpoint/:id/tools', { ...read, schema: { tags } }, async (request) => ({
    data: await endpointTools(app, request.auth!.accountId, request.params.id),
  }));

  route(app, 'POST /api/aiendpoint', { ...write, schema: { tags } }, async (request, reply) => {
    const id = await createEndpoint(app, request.auth!.accountId, request.body, actorOf(request));
    // The console reads the new id from `data.data`; `data.id` is the plain reading.
    return reply.status(201).send({ data: { data: id, id }, message: t(request.locale, 'registry.created') });
  });

  route(app, 'PATCH /api/aiendpoint/:id', { ...write, schema: { tags } }, async (request) => ({
    data: await updateEndpoint(
      app,
      request.auth!.accountId,
      request.params.id,
      request.body,
      actorOf(request),
    ),
    message: t(request.locale, 'registry.updated'),
  }));

  route(app, 'DELETE /api/aiendpoint/:ids', { ...write, schema: { tags } }, async (request) => {
    const deleted = await deleteEndpoints(
      app,
      request.auth!.accountId,
      parseIds(request.params.ids),
      actorOf(request),
    );
    return { data: { deleted }, message: t(request.locale, 'registry.deleted') };
  });
};

export default aiEndpointRoutes;
