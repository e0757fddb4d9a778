import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export const ITEM_KINDS = ['newitem', 'newitemtwo', 'endpointtest', 'airoute', 'air', 'search'] as const;
export type TItemKind = (typeof ITEM_KINDS)[number];

/** The spec's six name-only collections: one table, a `kind` column, scoped to the account. */
export const items = pgTable(
  'items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TItemKind>().notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('items_account_id_kind_idx').on(t.accountId, t.kind)],
);
