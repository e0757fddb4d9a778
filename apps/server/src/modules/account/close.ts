import { closeBilling } from '../billing/service';
import { accountRouteNames } from '../aiendpoint/service';
import { accountSessionIds, deleteUsersWhere } from '../identity/service';
import { accountKeyHashes } from '../keys/service';
import { deleteAccount, memberIdsOf, noMembershipOutside } from '../membership/service';
import { deleteAccountUsage } from '../usage/service';
import type { TServices } from '../../core/services';

/**
 * Closes an account for good: its sessions, API keys, endpoints and every row hanging off it go
 * (foreign keys cascade from the account). Members who belong to other accounts keep those and
 * their user; members left with no account at all are deleted. Caches everywhere are told at once.
 * Each table is changed through its owner's service, all in one transaction.
 */
export async function closeAccount(app: TServices, accountId: string): Promise<void> {
  await closeBilling(app.billing, accountId);
  const memberIds = await memberIdsOf(app.db, accountId);
  const keyHashes = await accountKeyHashes(app.db, accountId);
  const routeNames = await accountRouteNames(app.db, accountId);
  const sessionIds = await accountSessionIds(app.db, accountId);

  await app.db.transaction(async (tx) => {
    // Users whose only membership is this account leave with it (one statement).
    await deleteUsersWhere(tx, memberIds, (userId) => noMembershipOutside(tx, userId, accountId));
    await deleteAccountUsage(tx, accountId);
    await deleteAccount(tx, accountId);
  });

  await app.changes.publish({ kind: 'account', accountId });
  for (const sessionId of sessionIds) await app.changes.publish({ kind: 'session', sessionId });
  for (const keyHash of keyHashes) await app.changes.publish({ kind: 'api_key', keyHash });
  for (const routeName of routeNames) await app.changes.publish({ kind: 'endpoint', routeName });
  for (const userId of memberIds) await app.changes.publish({ kind: 'user', userId });
}
