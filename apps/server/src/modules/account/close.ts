import { and, eq, inArray, ne, notExists } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { closeBilling } from '../../billing/close';
import { accountUsers } from '../../db/schema/account-users';
import { accounts } from '../../db/schema/accounts';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { apiKeys } from '../../db/schema/api-keys';
import { sessions } from '../../db/schema/sessions';
import { deleteAccountUsage } from '../usage/service';
import { users } from '../../db/schema/users';

/**
 * Closes an account for good: its sessions, API keys, endpoints and every row hanging off it go
 * (foreign keys cascade from the account). Members who belong to other accounts keep those and
 * their user; members left with no account at all are deleted. Caches everywhere are told at once.
 */
export async function closeAccount(app: FastifyInstance, accountId: string): Promise<void> {
  await closeBilling(app.billing, accountId);
  const memberIds = (
    await app.db
      .select({ userId: accountUsers.userId })
      .from(accountUsers)
      .where(eq(accountUsers.accountId, accountId))
  ).map((row) => row.userId);
  const keyHashes = await app.db
    .select({ keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId));
  const routes = await app.db
    .select({ routeName: aiEndpoints.routeName })
    .from(aiEndpoints)
    .where(eq(aiEndpoints.accountId, accountId));
  const sessionIds = await app.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.accountId, accountId));

  await app.db.transaction(async (tx) => {
    // Users whose only membership is this account leave with it.
    if (memberIds.length > 0) {
      const otherMembership = tx
        .select({ one: accountUsers.userId })
        .from(accountUsers)
        .where(and(eq(accountUsers.userId, users.id), ne(accountUsers.accountId, accountId)));
      await tx.delete(users).where(and(inArray(users.id, memberIds), notExists(otherMembership)));
    }
    await deleteAccountUsage(tx, accountId);
    await tx.delete(accounts).where(eq(accounts.id, accountId));
  });

  await app.changes.publish({ kind: 'account', accountId });
  for (const { id } of sessionIds) await app.changes.publish({ kind: 'session', sessionId: id });
  for (const { keyHash } of keyHashes) await app.changes.publish({ kind: 'api_key', keyHash });
  for (const { routeName } of routes) await app.changes.publish({ kind: 'endpoint', routeName });
  for (const userId of memberIds) await app.changes.publish({ kind: 'user', userId });
}
