import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TItem, TItemKind } from '@air/shared/schemas/item';
import type { TDb } from '../../db/client';
import { items } from '../../db/schema/items';
import { AppError } from '../../lib/app-error';

/** One name-only collection of one account: every query is scoped by both. */
export interface TItemScope {
  accountId: string;
  kind: TItemKind;
}

type TItemRow = typeof items.$inferSelect;

function toWire(row: TItemRow): TItem {
  return { id: row.id, name: row.name, date_created: row.createdAt.toISOString() };
}

function inScope(scope: TItemScope) {
  return and(eq(items.accountId, scope.accountId), eq(items.kind, scope.kind));
}

export async function listItems(db: TDb, scope: TItemScope): Promise<TItem[]> {
  const rows = await db
    .select()
    .from(items)
    .where(inScope(scope))
    .orderBy(desc(items.createdAt), desc(items.id));
  return rows.map(toWire);
}

export async function getItem(db: TDb, scope: TItemScope, id: string): Promise<TItem> {
  const [row] = await db
    .select()
    .from(items)
    .where(and(inScope(scope), eq(items.id, id)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return toWire(row);
}

export async function createItem(db: TDb, scope: TItemScope, name: string): Promise<TItem> {
  const [row] = await db
    .insert(items)
    .values({ accountId: scope.accountId, kind: scope.kind, name })
    .returning();
  return toWire(row!);
}

export async function renameItem(db: TDb, scope: TItemScope, id: string, name: string): Promise<TItem> {
  const [row] = await db
    .update(items)
    .set({ name })
    .where(and(inScope(scope), eq(items.id, id)))
    .returning();
  if (!row) throw new AppError('not_found');
  return toWire(row);
}

/** Deletes all the given items, or none (404) when any id is not in this collection of the account. */
export async function deleteItems(db: TDb, scope: TItemScope, ids: string[]): Promise<number> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: items.id })
      .from(items)
      .where(and(inScope(scope), inArray(items.id, unique)));
    if (owned.length !== unique.length) throw new AppError('not_found');
    const deleted = await tx
      .delete(items)
      .where(and(inScope(scope), inArray(items.id, unique)))
      .returning({ id: items.id });
    return deleted.length;
  });
}
