import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDeleted, ZEnvelope, ZIdParams, ZIdsParams } from '@air/shared/schemas/common';
import { ITEM_KINDS, ZDeleteItems, ZItem, ZItemInput, type TItemKind } from '@air/shared/schemas/item';
import { t } from '../../i18n';
import { AppError } from '../../lib/app-error';
import './messages';
import { createItem, deleteItems, getItem, listItems, renameItem } from './service';

const ZUuid = z.uuid();

function parseIds(text: string): string[] {
  const ids = text.split(',').map((id) => id.trim());
  if (ids.length > 500 || !ids.every((id) => ZUuid.safeParse(id).success)) throw new AppError('not_found');
  return ids;
}

/**
 * The spec's six name-only collections, one generic module over the `items` table: the same five
 * calls for every kind, scoped to the caller's account. Deleting takes a body of ids
 * (`DELETE /api/{kind}`) or comma-separated ids in the path (`DELETE /api/{kind}/{ids}`, which is
 * how airoute's page deletes). Members of the account use them from a session; API keys need the
 * registry scopes (docs/decisions/004-registry-permissions.md).
 */
const itemRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { preValidation: app.authorize({ permission: 'user', scope: 'aiendpoint.read' }) };
  const write = {
    preValidation: app.authorize({ permission: 'user', scope: 'aiendpoint.write', verified: true }),
  };

  for (const kind of ITEM_KINDS) {
    const tags = ['items'];
    const scopeOf = (request: { auth: { accountId: string } | null }) => ({
      accountId: request.auth!.accountId,
      kind: kind as TItemKind,
    });

    app.get(
      `/${kind}`,
      { ...read, schema: { tags, response: { 200: ZEnvelope(z.array(ZItem)) } } },
      async (request) => ({
        data: await listItems(app.db, scopeOf(request)),
      }),
    );

    app.get(
      `/${kind}/:id`,
      { ...read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZItem) } } },
      async (request) => ({
        data: await getItem(app.db, scopeOf(request), request.params.id),
      }),
    );

    app.post(
      `/${kind}`,
      { ...write, schema: { tags, body: ZItemInput, response: { 201: ZEnvelope(ZItem) } } },
      async (request, reply) => {
        const data = await createItem(app.db, scopeOf(request), request.body.name);
        return reply.status(201).send({ data, message: t(request.locale, 'items.created') });
      },
    );

    app.patch(
      `/${kind}/:id`,
      {
        ...write,
        schema: { tags, params: ZIdParams, body: ZItemInput, response: { 200: ZEnvelope(ZItem) } },
      },
      async (request) => ({
        data: await renameItem(app.db, scopeOf(request), request.params.id, request.body.name),
        message: t(request.locale, 'items.updated'),
      }),
    );

    app.delete(
      `/${kind}`,
      { ...write, schema: { tags, body: ZDeleteItems, response: { 200: ZEnvelope(ZDeleted) } } },
      async (request) => {
        const ids = Array.isArray(request.body) ? request.body : request.body.ids;
        const deleted = await deleteItems(app.db, scopeOf(request), ids);
        return { data: { deleted }, message: t(request.locale, 'items.deleted') };
      },
    );

    app.delete(
      `/${kind}/:ids`,
      { ...write, schema: { tags, params: ZIdsParams, response: { 200: ZEnvelope(ZDeleted) } } },
      async (request) => {
        const deleted = await deleteItems(app.db, scopeOf(request), parseIds(request.params.ids));
        return { data: { deleted }, message: t(request.locale, 'items.deleted') };
      },
    );
  }
};

export default itemRoutes;
