import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { accounts } from '../../db/schema/accounts';

/**
 * Accounts (table `accounts`): names, plans, creating, renaming and deleting, and the sub-selects
 * other modules join.
 */

/** An account's name and plan id; undefined when there is no such account. */
export async function accountSummary(
  db: TDb,
  accountId: string,
): Promise<{ id: string; name: string; planId: string | null } | undefined> {
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name, planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row;
}

/** The account's plan id, or null (no plan, or no such account). */
export async function accountPlanId(db: TDb, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row?.planId ?? null;
}

/**
 * Accounts with their names, for joining into one query (the endpoint registry and the
 * marketplace join it on the endpoint's account id; `closedAt` null is an open account). A plain
 * sub-select of `accounts`, which PostgreSQL folds into the outer query.
 */
export function accountNames(db: TDb, alias = 'account_names') {
  return db
    .select({ id: accounts.id, name: accounts.name, closedAt: accounts.closedAt })
    .from(accounts)
    .as(alias);
}

/**
 * Accounts with their plan id, for joining into one query (billing's entitlements join their
 * subscription on the account id). A plain sub-select of `accounts`, which PostgreSQL folds into
 * the outer query.
 */
export function accountPlans(db: TDb, alias = 'account_plans') {
  return db.select({ id: accounts.id, planId: accounts.planId }).from(accounts).as(alias);
}

/**
 * Sets the account's plan, inside the caller's transaction: billing keeps it equal to the
 * subscription's plan (sign-in, the gateway and the header read it here).
 */
export async function setAccountPlan(tx: TDb, accountId: string, planId: string): Promise<void> {
  await tx.update(accounts).set({ planId }).where(eq(accounts.id, accountId));
}

/** Creates an account, inside the caller's transaction; answers its id. */
export async function createAccount(tx: TDb, values: { name: string; planId?: string }): Promise<string> {
  const [account] = await tx.insert(accounts).values(values).returning({ id: accounts.id });
  return account!.id;
}

/** Renames an account. */
export async function renameAccount(tx: TDb, accountId: string, name: string): Promise<void> {
  await tx.update(accounts).set({ name }).where(eq(accounts.id, accountId));
}

/**
 * Deletes an account for good; everything hanging off it (members, invites, sessions, keys,
 * endpoints, …) goes with it (foreign keys cascade).
 */
export async function deleteAccount(tx: TDb, accountId: string): Promise<void> {
  await tx.delete(accounts).where(eq(accounts.id, accountId));
}
