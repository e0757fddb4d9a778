import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Names: new_signin, plan_updated, card_updated, invite_accepted. A missing row means the default. */
export const notificationPrefs = pgTable(
  'notification_prefs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);
