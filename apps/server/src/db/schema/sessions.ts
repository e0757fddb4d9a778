import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

/** What `sessions.notice` holds. */
export interface TSessionNoticeRow {
  /** An admin removed the member, they left, or the owner closed the account. */
  reason: 'removed' | 'left' | 'closed';
  accountName: string;
}

/** A signed-in device. The session JWT carries `id`; a revoked row makes the JWT useless. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * A one-time notice for the console's next check: the member was removed from (or left) the
     * account this session was in, or its owner closed it, and the session was moved to another
     * account of theirs.
     */
    notice: jsonb('notice').$type<TSessionNoticeRow>(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_account_id_idx').on(t.accountId)],
);
