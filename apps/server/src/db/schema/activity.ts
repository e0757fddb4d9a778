import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { users } from './users';

/**
 * The account's activity log: who did what (member invited, joined, role changed, key created …).
 * Owned by the activity module; written in the same transaction as the change it records; rows
 * older than 90 days are purged. `data` holds display snapshots (an email, a key name) so an entry
 * still reads right after its subject is gone.
 */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_events_account_created_idx').on(t.accountId, t.createdAt),
    index('activity_events_created_idx').on(t.createdAt),
  ],
);
