import { and, asc, desc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import {
  ROUTING_MESSAGES,
  type TAiEndpoint,
  type TCreateAiEndpoint,
  type TRoutingConfig,
  type TSharedAiEndpoint,
  type TUpdateAiEndpoint,
} from '@air/shared/schemas/aiendpoint';
import type { TDb } from '../../db/client';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../activity/service';
import { accountNames, accountSummary } from '../membership/service';
import { sanitizeRichText } from '../../lib/sanitize-html';
import { assertUpstreamAllowed } from '../../lib/upstream-address';
import { mergeHeaders, sealHeaders } from './headers';
import { openHeaders, toOwnWire, toSharedWire, type TEndpointRow } from './wire';
import type { TServices } from '../../core/services';

export {
  reportUpstreamHealthTo,
  upstreamHealthOf,
  type TUpstreamHealthReader,
  type TUpstreamHealthRow,
} from './upstream-health';

/** An endpoint row's marketplace price (null when free): the catalog reads rows through it. */
export { priceOf } from './wire';

type TEndpointChanges = Partial<typeof aiEndpoints.$inferInsert>;

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

/**
 * The column changes an input asks for, validated: the URL against the address policy, the
 * description sanitised, the headers merged into the stored ones and sealed.
 */
async function changesFrom(
  app: TServices,
  input: TUpdateAiEndpoint,
  current?: TEndpointRow,
  accountId?: string,
): Promise<TEndpointChanges> {
  const changes: TEndpointChanges = {};
  if (accountId !== undefined) changes.accountId = accountId;
  if (input.name !== undefined) changes.name = input.name;
  if (input.route_name !== undefined) changes.routeName = input.route_name;
  if (input.route_type !== undefined) changes.routeType = input.route_type;
  if (input.isActive !== undefined) changes.isActive = input.isActive;
  if (input.isPrivate !== undefined) changes.isPrivate = input.isPrivate;
  if (input.isShared !== undefined) changes.isShared = input.isShared;
  if (input.route_endpoint !== undefined)
    changes.routeEndpoint = await assertUpstreamAllowed(
      input.route_endpoint,
      app.config.upstreamAllowPrivate,
    );
  const description = input.config?.description ?? input.description;
  if (description !== undefined) changes.description = sanitizeRichText(description);
  const config = input.config;
  if (config?.upstream_model !== undefined) changes.upstreamModel = config.upstream_model || null;
  if (config?.timeout_ms !== undefined) changes.upstreamTimeoutMs = config.timeout_ms;
  if (config?.price !== undefined) {
    const price = config.price;
    const free =
      !price || (price.per_call === 0 && price.per_1m_input_tokens === 0 && price.per_1m_output_tokens === 0);
    changes.pricePerCall = free ? null : price.per_call;
    changes.pricePer1mInput = free ? null : price.per_1m_input_tokens;
    changes.pricePer1mOutput = free ? null : price.per_1m_output_tokens;
  }
  if (config?.headers !== undefined) {
    const stored = openHeaders(app.config.secret, current?.upstreamHeadersEnc ?? null);
    changes.upstreamHeadersEnc = sealHeaders(app.config.secret, mergeHeaders(stored, config.headers));
  }
  await routingChanges(app, input, changes, current);
  return changes;
}

/**
 * The routing part of an input (contract 6a) merged into what is stored: `upstreams` is the whole
 * set and sets `route_endpoint` to its first URL (a new `route_endpoint` alone moves the first
 * upstream); null puts a part back to its default. Every upstream URL passes the address checks;
 * fallbacks must name other routes this account may call.
 */
async function routingChanges(
  app: TServices,
  input: TUpdateAiEndpoint,
  changes: TEndpointChanges,
  current?: TEndpointRow,
): Promise<void> {
  const config = input.config;
  const touched =
    config !== undefined &&
    (config.upstreams !== undefined ||
      config.retry !== undefined ||
      config.fallbacks !== undefined ||
      config.circuit !== undefined ||
      config.cache_ttl_s !== undefined);
  const stored = current?.routing ?? null;
  if (!touched) {
    // Only the URL moved: the first upstream moves with it.
    if (changes.routeEndpoint !== undefined && stored?.upstreams?.length) {
      changes.routing = {
        ...stored,
        upstreams: [{ ...stored.upstreams[0]!, url: changes.routeEndpoint }, ...stored.upstreams.slice(1)],
      };
    }
    return;
  }
  const routing: TRoutingConfig = { ...(stored ?? {}) };
  if (config.upstreams !== undefined) {
    const upstreams: { url: string; weight: number }[] = [];
    for (const [index, upstream] of config.upstreams.entries()) {
      const url = await assertUpstreamAllowed(
        upstream.url,
        app.config.upstreamAllowPrivate,
        undefined,
        `config.upstreams.${index}.url`,
      );
      upstreams.push({ url, weight: upstream.weight });
    }
    routing.upstreams = upstreams;
    changes.routeEndpoint = upstreams[0]!.url;
  } else if (changes.routeEndpoint !== undefined && routing.upstreams?.length) {
    routing.upstreams = [
      { ...routing.upstreams[0]!, url: changes.routeEndpoint },
      ...routing.upstreams.slice(1),
    ];
  }
  if (config.retry !== undefined) {
    if (config.retry === null) delete routing.retry;
    else routing.retry = config.retry;
  }
  if (config.circuit !== undefined) {
    if (config.circuit === null) delete routing.circuit;
    else routing.circuit = config.circuit;
  }
  if (config.cache_ttl_s !== undefined) {
    if (!config.cache_ttl_s) delete routing.cache_ttl_s;
    else routing.cache_ttl_s = config.cache_ttl_s;
  }
  if (config.fallbacks !== undefined) {
    if (config.fallbacks === null || config.fallbacks.length === 0) delete routing.fallbacks;
    else {
      const accountId = current?.accountId ?? changes.accountId;
      const self = changes.routeName ?? current?.routeName;
      const callable = accountId
        ? new Set((await callableModels(app.db, accountId)).map((row) => row.id))
        : null;
      config.fallbacks.forEach((name, index) => {
        if (name === self)
          throw new AppError('validation', {
            inputError: `config.fallbacks.${index}`,
            messageKey: ROUTING_MESSAGES.fallbackSelf,
          });
        if (!callable?.has(name))
          throw new AppError('validation', {
            inputError: `config.fallbacks.${index}`,
            messageKey: ROUTING_MESSAGES.fallbackUnknown,
            params: { name },
          });
      });
      routing.fallbacks = config.fallbacks;
    }
  }
  changes.routing = Object.keys(routing).length > 0 ? routing : null;
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
): Promise<{ routed: boolean; upstreams: { url: string; weight: number }[] }> {
  const row = await findOwn(app, accountId, id);
  const upstreams = row.routing?.upstreams?.length
    ? row.routing.upstreams
    : [{ url: row.routeEndpoint, weight: 1 }];
  return { routed: row.routing !== null, upstreams };
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

/** The route names of all the account's endpoints (to publish when the account closes). */
export async function accountRouteNames(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ routeName: aiEndpoints.routeName })
    .from(aiEndpoints)
    .where(eq(aiEndpoints.accountId, accountId));
  return rows.map((row) => row.routeName);
}

/** The endpoint with this route name: the gateway's look-up on a route-cache miss (`gateway/directory.ts`). */
export async function endpointByRouteName(db: TDb, routeName: string): Promise<TEndpointRow | undefined> {
  const [row] = await db.select().from(aiEndpoints).where(eq(aiEndpoints.routeName, routeName)).limit(1);
  return row;
}

/**
 * The routes a key of this account may call (its own active endpoints and every active, shared,
 * public one), by route name, with the owning account's name: the gateway's `GET /v1/models`.
 */
export async function callableModels(
  db: TDb,
  accountId: string,
): Promise<{ id: string; created: Date; ownedBy: string }[]> {
  const account = accountNames(db);
  return db
    .select({ id: aiEndpoints.routeName, created: aiEndpoints.createdAt, ownedBy: account.name })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(
      and(
        eq(aiEndpoints.isActive, true),
        or(
          eq(aiEndpoints.accountId, accountId),
          // Another account's endpoint as the marketplace lists it: shared, public, account open.
          and(eq(aiEndpoints.isShared, true), eq(aiEndpoints.isPrivate, false), isNull(account.closedAt)),
        ),
      ),
    )
    .orderBy(asc(aiEndpoints.routeName));
}

/**
 * Endpoints' route names by id, for joining into one query (usage reports name the endpoints of
 * their rows): a plain sub-select of `ai_endpoints` with its column names (`id`, `route_name`),
 * which PostgreSQL folds into the outer query. Usable in SQL text: `left join ${endpointRoutes(db, 'a')} on …`.
 */
export function endpointRoutes(db: TDb, alias = 'endpoint_routes') {
  return db.select({ id: aiEndpoints.id, routeName: aiEndpoints.routeName }).from(aiEndpoints).as(alias);
}

/** The marketplace: every active, shared, public endpoint of every open account. */
export async function listSharedEndpoints(app: TServices): Promise<TSharedAiEndpoint[]> {
  const account = accountNames(app.db);
  const rows = await app.db
    .select({ endpoint: aiEndpoints, accountName: account.name })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(
      and(
        eq(aiEndpoints.isActive, true),
        eq(aiEndpoints.isShared, true),
        eq(aiEndpoints.isPrivate, false),
        isNull(account.closedAt),
      ),
    )
    .orderBy(desc(aiEndpoints.createdAt), desc(aiEndpoints.id));
  return rows.map((row) => toSharedWire(row.endpoint, row.accountName));
}
