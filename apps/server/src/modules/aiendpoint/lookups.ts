import { and, asc, desc, eq, isNull, or } from 'drizzle-orm';
import type { TApiProtocol, TSharedAiEndpoint } from '@air/shared/schemas/aiendpoint';
import type { TPrice } from '@air/shared/schemas/price';
import type { TDb } from '../../db/client';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { accountNames } from '../membership/service';
import { priceOf, toSharedWire, type TEndpointRow } from './wire';
import type { TServices } from '../../core/services';

/*
 * The endpoint reads other parts make (the gateway's route look-up and model list, usage's route
 * names, the marketplace, closing an account), handed out through service.ts.
 */

/** The route names of all the account's endpoints (to publish when the account closes). */
export async function accountRouteNames(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ routeName: aiEndpoints.routeName })
    .from(aiEndpoints)
    .where(eq(aiEndpoints.accountId, accountId));
  return rows.map((row) => row.routeName);
}

/** The route names of the account's active MCP endpoints: what its keys reach at `/api/mcp` (`gateway/mcp-aggregate.ts`). */
export async function accountMcpRouteNames(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ routeName: aiEndpoints.routeName })
    .from(aiEndpoints)
    .where(
      and(
        eq(aiEndpoints.accountId, accountId),
        eq(aiEndpoints.isActive, true),
        eq(aiEndpoints.protocol, 'mcp'),
      ),
    )
    .orderBy(asc(aiEndpoints.routeName));
  return rows.map((row) => row.routeName);
}

/** The endpoint with this route name: the gateway's look-up on a route-cache miss (`gateway/directory.ts`). */
export async function endpointByRouteName(db: TDb, routeName: string): Promise<TEndpointRow | undefined> {
  const [row] = await db.select().from(aiEndpoints).where(eq(aiEndpoints.routeName, routeName)).limit(1);
  return row;
}

/**
 * The routes a key of this account may call (its own active endpoints and every active, shared,
 * public one), by route name, with the owning account's name and the model it serves: the
 * gateway's `GET /v1/models`.
 */
export async function callableModels(
  db: TDb,
  accountId: string,
  protocol: TApiProtocol = 'openai',
): Promise<{ id: string; created: Date; ownedBy: string; price: TPrice | null; modelId: string | null }[]> {
  const account = accountNames(db);
  const rows = await db
    .select({
      id: aiEndpoints.routeName,
      created: aiEndpoints.createdAt,
      ownedBy: account.name,
      providerId: aiEndpoints.accountId,
      pricePerCall: aiEndpoints.pricePerCall,
      pricePer1mInput: aiEndpoints.pricePer1mInput,
      pricePer1mOutput: aiEndpoints.pricePer1mOutput,
      modelId: aiEndpoints.modelId,
    })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(
      and(
        eq(aiEndpoints.isActive, true),
        // MCP servers are no models: listed and fallen back to only among themselves.
        eq(aiEndpoints.protocol, protocol),
        or(
          eq(aiEndpoints.accountId, accountId),
          // Another account's endpoint as the marketplace lists it: shared, public, account open.
          and(eq(aiEndpoints.isShared, true), eq(aiEndpoints.isPrivate, false), isNull(account.closedAt)),
        ),
      ),
    )
    .orderBy(asc(aiEndpoints.routeName));
  // The price this account's calls are charged at: its own endpoints are free to it.
  return rows.map((row) => ({
    id: row.id,
    created: row.created,
    ownedBy: row.ownedBy,
    price: row.providerId === accountId ? null : priceOf(row),
    modelId: row.modelId,
  }));
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
