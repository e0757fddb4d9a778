import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { permissionEnum } from './account-users';
import { accounts } from './accounts';
import { users } from './users';

/**
 * An invitation to join an account with a role (never owner or master: enforced by the service).
 * The link carries a random token; only its SHA-256 is kept. A resend mints a new token (the old
 * link stops working) and moves `date_sent` and `expires_at` on.
 */
export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    permission: permissionEnum('permission').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    dateSent: timestamp('date_sent', { withTimezone: true }).notNull().defaultNow(),
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    index('invites_account_id_idx').on(t.accountId),
    index('invites_email_idx').on(t.email),
    uniqueIndex('invites_token_hash_unique').on(t.tokenHash),
  ],
);
