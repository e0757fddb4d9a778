import { and, eq, isNull } from 'drizzle-orm';
import type { TMarketplaceStats } from '@air/shared/schemas/marketplace';
import type { TDb } from '../../db/client';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { accountNames } from '../membership/service';
import { statsFrom, statsOf } from './figures';

/** One endpoint serving a model (contract 5b): its route and the catalog's figures of it. */
export interface TModelProvider {
  endpointId: string;
  routeName: string;
  stats: TMarketplaceStats;
}

/**
 * The active OpenAI-protocol endpoints of open accounts that declare this model id (normalized),
 * with their 7- and 30-day figures (decision 057's roll-ups, the owners' own calls out): what the
 * gateway's model look-up keeps in memory (gateway/directory.ts). Whether a caller may call each
 * one (shared and public, or its own; its key's allow-list) is decided per call from the route
 * entries, never here.
 */
export async function modelProviders(db: TDb, modelId: string, now = Date.now()): Promise<TModelProvider[]> {
  const account = accountNames(db);
  const rows = await db
    .select({ id: aiEndpoints.id, routeName: aiEndpoints.routeName })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(
      and(
        eq(aiEndpoints.modelId, modelId),
        eq(aiEndpoints.isActive, true),
        eq(aiEndpoints.protocol, 'openai'),
        isNull(account.closedAt),
      ),
    )
    .orderBy(aiEndpoints.routeName);
  if (rows.length === 0) return [];
  const figures = await statsOf(
    db,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({
    endpointId: row.id,
    routeName: row.routeName,
    stats: statsFrom(figures.get(row.id)),
  }));
}
