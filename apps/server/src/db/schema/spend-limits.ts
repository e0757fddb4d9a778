import { integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/** A caller's cap on marketplace spend per billing period (minor units); no row: no cap. */
export const spendLimits = pgTable('spend_limits', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  limitMinor: integer('limit_minor').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
