import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ITEM_KINDS, type TItemKind } from '@air/shared/schemas/item';
import { route } from '../../core/route';
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

    route(app, `GET /api/${kind}`, { ...read, schema: { tags } }, async (request) => ({
      data: await listItems(app.db, scopeOf(request)),
    }));

    route(app, `GET /api/${kind}/:id`, { ...read, schema: { tags } }, async (request) => ({
      data: await getItem(app.db, scopeOf(request), request.params.id),
    }));

    route(app, `POST /api/${kind}`, { ...write, schema: { tags } }, async (request) => {
      const data = await createItem(app.db, scopeOf(request), request.body.name);
      return { data, message: t(request.locale, 'items.created') };
    });

    route(app, `PATCH /api/${kind}/:id`, { ...write, schema: { tags } }, async (request) => ({
      data: await renameItem(app.db, scopeOf(request), request.params.id, request.body.name),
      message: t(request.locale, 'items.updated'),
    }));

    route(app, `DELETE /api/${kind}`, { ...write, schema: { tags } }, async (request) => {
      const ids = Array.isArray(request.body) ? request.body : request.body.ids;
      const deleted = await deleteItems(app.db, scopeOf(request), ids);
      return { data: { deleted }, message: t(request.locale, 'items.deleted') };
    });

    route(app, `DELETE /api/${kind}/:ids`, { ...write, schema: { tags } }, async (request) => {
      const deleted = await deleteItems(app.db, scopeOf(request), parseIds(request.params.ids));
      return { data: { deleted }, message: t(request.locale, 'items.deleted') };
    });
  }
};

export default itemRoutes;
