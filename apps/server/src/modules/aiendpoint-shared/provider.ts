import type { TMarketplaceProvider } from '@air/shared/schemas/marketplace';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { profileOf } from '../membership/service';
import { itemOf, listed } from './catalog';
import { combinedWindows, sortKey, statsFrom, statsOf } from './figures';

/**
 * A provider's marketplace page (`GET /api/marketplace/{provider}`): the listed endpoints under
 * the slug (active, shared, public, of open accounts; nothing else ever), most called first,
 * their combined figures, and the profile of the account that owns them. Route names are unique
 * but a slug is not bound to one account: the page names the account of the oldest listed
 * endpoint (decision 057). 404 when nothing is listed under it.
 */
export async function providerPage(
  db: TDb,
  plans: TPlan[],
  slug: string,
  now = Date.now(),
): Promise<TMarketplaceProvider> {
  const rows = await listed(db, { provider: slug });
  if (rows.length === 0) throw new AppError('not_found');
  const stats = await statsOf(
    db,
    rows.map((row) => row.id),
    now,
  );
  const owner = rows.reduce((oldest, row) => (row.createdAt < oldest.createdAt ? row : oldest));
  const endpoints = rows
    .map((row) => itemOf(row, statsFrom(stats.get(row.id)), plans, true))
    .map((item) => ({ item, key: sortKey('popular', '7d', item, item.route_name) }))
    .sort((a, b) => (a.key[0] !== b.key[0] ? a.key[0] - b.key[0] : a.key[1] < b.key[1] ? -1 : 1))
    .map(({ item }) => item);
  return {
    provider: { name: owner.accountName, slug, profile: (await profileOf(db, owner.accountId)) ?? '' },
    stats: statsFrom(combinedWindows(stats.values())),
    endpoints,
  };
}
