import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const ONE_TIME_TOKEN_KINDS = ['verify', 'magic', 'reset', 'impersonate', 'otp', 'social'] as const;
export type TOneTimeTokenKind = (typeof ONE_TIME_TOKEN_KINDS)[number];

/** Single-use, short-lived tokens. Only a SHA-256 hash of the token is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<TOneTimeTokenKind>().notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_token_hash_unique').on(t.tokenHash),
    index('one_time_tokens_user_id_idx').on(t.userId),
    index('one_time_tokens_expires_at_idx').on(t.expiresAt),
  ],
);
