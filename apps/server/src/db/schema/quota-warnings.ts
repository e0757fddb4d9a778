import { pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * Quota warnings already sent: one row per account, period (`YYYY-MM`) and level (80 or 100).
 * Inserting the row is what claims the mail, so each is sent once even with several instances.
 */
export const quotaWarnings = pgTable(
  'quota_warnings',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    level: smallint('level').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.period, t.level] })],
);
