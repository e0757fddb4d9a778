import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * A person. `email` is stored lower-cased (a check constraint enforces it) and is unique.
 * TOTP secrets are encrypted with SECRET (`*_enc`); the backup code is only kept hashed.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    verified: boolean('verified').notNull().default(false),
    avatar: text('avatar'),
    locale: text('locale').notNull().default('en'),
    darkMode: boolean('dark_mode').notNull().default(false),
    supportEnabled: boolean('support_enabled').notNull().default(false),
    onboarded: boolean('onboarded').notNull().default(false),
    duplicateUser: boolean('duplicate_user').notNull().default(false),
    isMaster: boolean('is_master').notNull().default(false),
    defaultAccountId: uuid('default_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    totpSecretEnc: text('totp_secret_enc'),
    totpPendingSecretEnc: text('totp_pending_secret_enc'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** Last accepted TOTP time step: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
    backupCodeHash: text('backup_code_hash'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);
