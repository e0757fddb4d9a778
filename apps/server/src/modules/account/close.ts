import { closeBilling } from '../billing/service';
import { accountRouteNames } from '../aiendpoint/service';
import { accountSessionIds, deleteUsersWhere } from '../identity/service';
import { accountKeyHashes } from '../keys/service';
import {
  accountSummary,
  deleteAccount,
  landMemberSessions,
  memberIdsOf,
  noMembershipOutside,
} from '../membership/service';
import { deleteAccountUsage } from '../usage/service';
import type { TServices } from '../../core/services';

/**
 * Closes an account for good: its sessions, API keys, endpoints and every row hanging off it go
 * (foreign keys cascade from the account). Members who belong to other accounts keep those and
 * their user, and whoever was working in this one keeps working in another of theirs, told once
 * that the owner closed it; members left with no account at all are deleted, and their sessions'
 * next check says why (decision 033). The owner's session that closes it simply ends. Caches
 * everywhere are told at once. Each table is changed through its owner's service, all in one
 * transaction.
 */
export async function closeAccount(
  app: TServices,
  accountId: string,
  closingSessionId?: string,
): Promise<void> {
  await closeBilling(app.billing, accountId);
  const keyHashes = await accountKeyHashes(app.db, accountId);
  const routeNames = await accountRouteNames(app.db, accountId);

  const { memberIds, sessionIds } = await app.db.transaction(async (tx) => {
    const account = await accountSummary(tx, accountId);
    const memberIds = await memberIdsOf(tx, accountId);
    const sessionIds = new Set(await accountSessionIds(tx, accountId));
    if (account) {
      const notice = { reason: 'closed' as const, accountName: account.name };
      for (const userId of memberIds) {
        const landing = await landMemberSessions(tx, {
          userId,
          accountId,
          notice,
          exceptSessionId: closingSessionId,
        });
        for (const id of landing.changedSessionIds) sessionIds.add(id);
      }
    }
    // Users whose only membership is this account leave with it (one statement).
    await deleteUsersWhere(tx, memberIds, (userId) => noMembershipOutside(tx, userId, accountId));
    await deleteAccountUsage(tx, accountId);
    await deleteAccount(tx, accountId);
    return { memberIds, sessionIds };
  });

  await app.changes.publish({ kind: 'account', accountId });
  for (const sessionId of sessionIds) await app.changes.publish({ kind: 'session', sessionId });
  for (const keyHash of keyHashes) await app.changes.publish({ kind: 'api_key', keyHash });
  for (const routeName of routeNames) await app.changes.publish({ kind: 'endpoint', routeName });
  for (const userId of memberIds) await app.changes.publish({ kind: 'user', userId });
}
