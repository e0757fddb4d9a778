import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * API keys (`air_` + 40 base62). `key_hash` (SHA-256) is the look-up; `key_enc` is the key sealed
 * with SECRET so a developer can reveal it again; `key_prefix` is what lists show.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    keyEnc: text('key_enc').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    scope: text('scope').array().notNull().default([]),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Key controls (contract 6b): refused after this instant; null never. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The only route names the key may call; null for all it may reach. */
    routes: text('routes').array(),
    /** Calls this key may make per plan period; null for no cap of its own. */
    monthlyCalls: integer('monthly_calls'),
    /** Prompt plus completion tokens this key may use per minute (contract 6e); null for the plan's alone. */
    tokensPerMinute: integer('tokens_per_minute'),
    /** Marketplace spend this key may make per plan period, minor units (contract 6e); null for none. */
    monthlySpend: integer('monthly_spend'),
    /** Page origins (`https://app.example`) that may use the key from a browser (contract 6c); none by default. */
    allowedOrigins: text('allowed_origins').array().notNull().default([]),
    /** The only MCP tools it may call, each `route tool` (contract 6d); null for every tool. */
    tools: text('tools').array(),
    /** Only MCP tools their server marks read-only (`readOnlyHint`). */
    toolsReadOnly: boolean('tools_read_only').notNull().default(false),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_unique').on(t.keyHash),
    index('api_keys_account_id_idx').on(t.accountId),
  ],
);
