import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type {
  TMcpTools,
  TAiEndpoint,
  TCreateAiEndpoint,
  TSharedAiEndpoint,
  TUpdateAiEndpoint,
} from '@air/shared/schemas/aiendpoint';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../activity/service';
import { accountNames, accountSummary } from '../membership/service';
import { changesFrom } from './changes';
import { readMcpTools } from './mcp-tools';
import { toOwnWire, toSharedWire, type TEndpointRow } from './wire';
import type { TServices } from '../../core/services';

export {
  reportUpstreamHealthTo,
  upstreamHealthOf,
  type TUpstreamHealthReader,
  type TUpstreamHealthRow,
} from './upstream-health';

/** An endpoint row's marketplace price (null when free): the catalog reads rows through it. */
export { priceOf } from './wire';

/** What the gateway, usage and the marketplace read of the endpoints. */
export {
  accountMcpRouteNames,
  accountRouteNames,
  callableModels,
  endpointByRouteName,
  endpointRoutes,
  listSharedEndpoints,
} from './lookups';

function routeNameTaken(): AppError {
  return new AppError('conflict', { inputError: 'route_name', messageKey: 'registry.route_name_taken' });
}

/** PostgreSQL unique violation (23505), as PGlite and node-postgres report it, wrapped or not. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function assertRouteNameFree(app: TServices, routeName: string, exceptId?: string) {
  const [taken] = await app.db
    .select({ id: aiEndpoints.id })
    .from(aiEndpoints)
    .where(
      exceptId
        ? and(eq(aiEndpoints.routeName, routeName), ne(aiEndpoints.id, exceptId))
        : eq(aiEndpoints.routeName, routeName),
    )
    .limit(1);
  if (taken) throw routeNameTaken();
}

async function accountName(app: TServices, accountId: string): Promise<string> {
  return (await accountSummary(app.db, accountId))?.name ?? '';
}

export async function listEndpoints(app: TServices, accountId: string): Promise<TAiEndpoint[]> {
  const account = accountNames(app.db);
  const rows = await app.db
    .select({ endpoint: aiEndpoints, accountName: account.name })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(eq(aiEndpoints.accountId, accountId))
    .orderBy(desc(aiEndpoints.createdAt), desc(aiEndpoints.id));
  return rows.map((row) => toOwnWire(row.endpoint, row.accountName, app.config.secret));
}

/**
 * An own endpoint in full, or another account's active shared public one read-only (no URL, no
 * upstream settings). Anything else is 404, so a private endpoint's existence never shows.
 */
export async function getEndpoint(
  app: TServices,
  accountId: string,
  id: string,
): Promise<TAiEndpoint | (TSharedAiEndpoint & { editable: false })> {
  const account = accountNames(app.db);
  const [row] = await app.db
    .select({ endpoint: aiEndpoints, accountName: account.name, closedAt: account.closedAt })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(eq(aiEndpoints.id, id))
    .limit(1);
  if (!row) throw new AppError('not_found');
  const { endpoint } = row;
  if (endpoint.accountId === accountId) return toOwnWire(endpoint, row.accountName, app.config.secret);
  const listed = endpoint.isActive && endpoint.isShared && !endpoint.isPrivate && row.closedAt === null;
  if (!listed) throw new AppError('not_found');
  return { ...toSharedWire(endpoint, row.accountName), editable: false };
}

export async function createEndpoint(
  app: TServices,
  accountId: string,
  input: TCreateAiEndpoint,
  actorUserId: string | null = null,
): Promise<string> {
  const changes = await changesFrom(app, { ...input }, undefined, accountId);
  await assertRouteNameFree(app, input.route_name);
  let row: TEndpointRow | undefined;
  try {
    row = await app.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(aiEndpoints)
        .values({
          ...changes,
          accountId,
          name: input.name ?? input.route_name,
          routeName: input.route_name,
          routeEndpoint: changes.routeEndpoint!,
          routeType: input.route_type ?? 'agent',
        })
        .returning();
      await recordActivity(tx, {
        accountId,
        actorUserId,
        type: 'endpoint.created',
        data: { route_name: input.route_name },
      });
      if (created!.isShared) {
        await recordActivity(tx, {
          accountId,
          actorUserId,
          type: 'endpoint.shared',
          data: { route_name: input.route_name },
        });
      }
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw routeNameTaken();
    throw error;
  }
  await app.changes.publish({ kind: 'endpoint', routeName: row!.routeName });
  return row!.id;
}

async function findOwn(app: TServices, accountId: string, id: string): Promise<TEndpointRow> {
  const [row] = await app.db
    .select()
    .from(aiEndpoints)
    .where(and(eq(aiEndpoints.id, id), eq(aiEndpoints.accountId, accountId)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return row;
}

export async function updateEndpoint(
  app: TServices,
  accountId: string,
  id: string,
  input: TUpdateAiEndpoint,
  actorUserId: string | null = null,
): Promise<TAiEndpoint> {
  const current = await findOwn(app, accountId, id);
  const changes = await changesFrom(app, input, current);
  const renamed = changes.routeName !== undefined && changes.routeName !== current.routeName;
  if (renamed) await assertRouteNameFree(app, changes.routeName!, id);
  let updated: TEndpointRow | undefined;
  try {
    updated = await app.db.transaction(async (tx) => {
      const [saved] = await tx
        .update(aiEndpoints)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(aiEndpoints.id, id), eq(aiEndpoints.accountId, accountId)))
        .returning();
      if (saved && saved.isShared && !current.isShared) {
        await recordActivity(tx, {
          accountId,
          actorUserId,
          type: 'endpoint.shared',
          data: { route_name: saved.routeName },
        });
      }
      return saved;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw routeNameTaken();
    throw error;
  }
  if (!updated) throw new AppError('not_found');
  await app.changes.publish({ kind: 'endpoint', routeName: current.routeName });
  if (renamed) await app.changes.publish({ kind: 'endpoint', routeName: updated.routeName });
  return toOwnWire(updated, await accountName(app, accountId), app.config.secret);
}

/** An own endpoint's upstreams (URL and weight) and whether it has routing settings, or 404. */
export async function endpointUpstreams(
  app: TServices,
  accountId: string,
  id: string,
): Promise<{ id: string; routed: boolean; upstreams: { url: string; weight: number }[] }> {
  const row = await findOwn(app, accountId, id);
  const upstreams = row.routing?.upstreams?.length
    ? row.routing.upstreams
    : [{ url: row.routeEndpoint, weight: 1 }];
  return { id: row.id, routed: row.routing !== null, upstreams };
}

/** An own MCP endpoint's tools, read from its server now (contract 6d); any other endpoint is 404. */
export async function endpointTools(app: TServices, accountId: string, id: string): Promise<TMcpTools> {
  const row = await findOwn(app, accountId, id);
  if (row.protocol !== 'mcp') throw new AppError('not_found');
  return readMcpTools(app.config.secret, app.config.upstreamAllowPrivate, row);
}

/** Deletes all the given endpoints of the account, or none (404) when any is not the account's. */
export async function deleteEndpoints(
  app: TServices,
  accountId: string,
  ids: string[],
  actorUserId: string | null = null,
): Promise<number> {
  const unique = [...new Set(ids)];
  const routeNames = await app.db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: aiEndpoints.id })
      .from(aiEndpoints)
      .where(and(eq(aiEndpoints.accountId, accountId), inArray(aiEndpoints.id, unique)));
    if (owned.length !== unique.length) throw new AppError('not_found');
    const deleted = await tx
      .delete(aiEndpoints)
      .where(and(eq(aiEndpoints.accountId, accountId), inArray(aiEndpoints.id, unique)))
      .returning({ routeName: aiEndpoints.routeName });
    for (const { routeName } of deleted) {
      await recordActivity(tx, {
        accountId,
        actorUserId,
        type: 'endpoint.deleted',
        data: { route_name: routeName },
      });
    }
    return deleted.map((row) => row.routeName);
  });
  for (const routeName of routeNames) await app.changes.publish({ kind: 'endpoint', routeName });
  return routeNames.length;
}
