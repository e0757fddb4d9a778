import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Why a session that is gone ended, when its holder could not be told otherwise: a member removed
 * from their only account is deleted with their sessions, so the console's next check reads here
 * why (the account's name). No foreign keys: the row outlives the user and the account. Rows
 * older than a session token's lifetime are useless and pruned when new ones are written.
 */
export const sessionEndings = pgTable('session_endings', {
  sessionId: uuid('session_id').primaryKey(),
  /**
   * `removed` (an admin removed the member), `left` (the member left) or `closed` (the owner
   * closed the account).
   */
  reason: text('reason').notNull(),
  accountName: text('account_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
