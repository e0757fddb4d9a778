import { and, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import {
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  API_KEY_RANDOM_LENGTH,
  API_KEY_VISIBLE_PREFIX_LENGTH,
  KEY_CONTROL_MESSAGES,
  maskApiKey,
  type TApiKey,
  type TApiKeyScope,
  type TCreateApiKey,
  type TKeyIdentity,
  type TCreatedApiKey,
  type TUpdateApiKey,
} from '@air/shared/schemas/api-key';
import type { TDb } from '../../db/client';
import { apiKeys } from '../../db/schema/api-keys';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../activity/service';
import { accountHeader } from '../account/service';
import { accountNames } from '../membership/service';
import { callableModels } from '../aiendpoint/service';
import { decryptSecret, encryptSecret, randomBase62, sha256 } from '../../lib/crypto';
import type { TKeyAuth } from '../../core/credentials';
import type { TServices } from '../../core/services';

type TKeyRow = typeof apiKeys.$inferSelect;

function toWire(row: TKeyRow, key: string): TApiKey {
  return {
    id: row.id,
    name: row.name,
    key,
    scope: row.scope as TApiKeyScope[],
    active: row.active,
    date_created: row.createdAt.toISOString(),
    last_used: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
    routes: row.routes ?? null,
    monthly_calls: row.monthlyCalls ?? null,
    tokens_per_minute: row.tokensPerMinute ?? null,
    monthly_spend: row.monthlySpend ?? null,
    allowed_origins: row.allowedOrigins,
    tools: row.tools ? row.tools.map(splitKeyTool) : null,
    tools_read_only: row.toolsReadOnly,
  };
}

/** A stored `route tool` entry as the wire's pair (a route name holds no space). */
function splitKeyTool(entry: string): { route: string; tool: string } {
  const at = entry.indexOf(' ');
  return { route: entry.slice(0, at), tool: entry.slice(at + 1) };
}

type TKeyControls = Pick<
  TCreateApiKey,
  | 'expires_at'
  | 'routes'
  | 'monthly_calls'
  | 'tokens_per_minute'
  | 'monthly_spend'
  | 'allowed_origins'
  | 'tools'
  | 'tools_read_only'
>;

/**
 * The key controls of an input (contract 6b) as column changes: an expiry in the future, routes
 * this account may call now (own endpoints or shared public ones), a positive cap.
 */
async function controlChanges(
  app: TServices,
  accountId: string,
  input: TKeyControls,
): Promise<Partial<typeof apiKeys.$inferInsert>> {
  const changes: Partial<typeof apiKeys.$inferInsert> = {};
  if (input.expires_at !== undefined) {
    const at = input.expires_at === null ? null : new Date(input.expires_at);
    if (at && at.getTime() <= Date.now())
      throw new AppError('validation', {
        inputError: 'expires_at',
        messageKey: KEY_CONTROL_MESSAGES.expiresInPast,
      });
    changes.expiresAt = at;
  }
  if (input.routes !== undefined) {
    if (input.routes !== null) {
      const callable = new Set((await callableModels(app.db, accountId)).map((row) => row.id));
      input.routes.forEach((name, index) => {
        if (!callable.has(name))
          throw new AppError('validation', {
            inputError: `routes.${index}`,
            messageKey: KEY_CONTROL_MESSAGES.routeUnknown,
            params: { name },
          });
      });
    }
    changes.routes = input.routes;
  }
  if (input.tools !== undefined) {
    if (input.tools !== null) {
      // Tools of MCP routes this account may call now (its own or shared public ones).
      const callable = new Set((await callableModels(app.db, accountId, 'mcp')).map((row) => row.id));
      input.tools.forEach(({ route }, index) => {
        if (!callable.has(route))
          throw new AppError('validation', {
            inputError: `tools.${index}.route`,
            messageKey: KEY_CONTROL_MESSAGES.routeUnknown,
            params: { name: route },
          });
      });
    }
    changes.tools = input.tools === null ? null : input.tools.map(({ route, tool }) => `${route} ${tool}`);
  }
  if (input.tools_read_only !== undefined) changes.toolsReadOnly = input.tools_read_only;
  if (input.monthly_calls !== undefined) changes.monthlyCalls = input.monthly_calls;
  if (input.tokens_per_minute !== undefined) changes.tokensPerMinute = input.tokens_per_minute;
  if (input.monthly_spend !== undefined) changes.monthlySpend = input.monthly_spend;
  if (input.allowed_origins !== undefined) changes.allowedOrigins = input.allowed_origins;
  return changes;
}

/** Scopes in the canonical order, each once. */
function normaliseScopes(scopes: readonly TApiKeyScope[]): TApiKeyScope[] {
  return API_KEY_SCOPES.filter((scope) => scopes.includes(scope));
}

/** A key changed: forget it here at once, then tell every cache (gateway, other instances). */
async function announce(app: TServices, keyHash: string) {
  app.forgetApiKey(keyHash);
  await app.changes.publish({ kind: 'api_key', keyHash });
}

export async function listKeys(app: TServices, accountId: string): Promise<TApiKey[]> {
  const rows = await app.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => toWire(row, maskApiKey(row.keyPrefix)));
}

async function findKey(app: TServices, accountId: string, id: string): Promise<TKeyRow> {
  const [row] = await app.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return row;
}

/** The hashes of all the account's keys (to publish when the account closes). */
export async function accountKeyHashes(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId));
  return rows.map((row) => row.keyHash);
}

/**
 * Keys' names by id with their account, for joining into one query (usage reports name the keys
 * of their rows): a plain sub-select of `api_keys` with its column names (`id`, `account_id`,
 * `name`), which PostgreSQL folds into the outer query. Usable in SQL text.
 */
export function keyNames(db: TDb, alias = 'key_names') {
  return db
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, name: apiKeys.name })
    .from(apiKeys)
    .as(alias);
}

/**
 * Active keys with a cap of calls, by id with their account, for joining into one query (the limit
 * alerts count each key's calls this period against its cap): a plain sub-select of `api_keys`
 * with the columns `id`, `account_id`, `monthly_calls`. Usable in SQL text.
 */
export function cappedKeys(db: TDb, alias = 'capped_keys') {
  return db
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, monthlyCalls: apiKeys.monthlyCalls })
    .from(apiKeys)
    .where(and(eq(apiKeys.active, true), isNotNull(apiKeys.monthlyCalls)))
    .as(alias);
}

/**
 * Active keys with a budget in money or a limit of tokens (contract 6e), by id with their account
 * and name, for joining into one query (the limit alerts): a sub-select of `api_keys` with the
 * columns `id`, `account_id`, `name`, `monthly_spend`, `tokens_per_minute`. Usable in SQL text.
 */
export function governedKeys(db: TDb, alias = 'governed_keys') {
  return db
    .select({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      name: apiKeys.name,
      monthlySpend: apiKeys.monthlySpend,
      tokensPerMinute: apiKeys.tokensPerMinute,
    })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.active, true), or(isNotNull(apiKeys.monthlySpend), isNotNull(apiKeys.tokensPerMinute))),
    )
    .as(alias);
}

/**
 * The active key with this hash, if its account is open, or null: the key cache's loader
 * (`plugin.ts`), read on a miss. It builds the one key shape (`TKeyAuth`), frozen because every
 * request of the key shares it.
 */
export async function activeKeyByHash(db: TDb, keyHash: string): Promise<TKeyAuth | null> {
  // Membership's accounts as a sub-select: still one query, which PostgreSQL folds into a join.
  const account = accountNames(db);
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      accountId: apiKeys.accountId,
      scopes: apiKeys.scope,
      expiresAt: apiKeys.expiresAt,
      routes: apiKeys.routes,
      monthlyCalls: apiKeys.monthlyCalls,
      tokensPerMinute: apiKeys.tokensPerMinute,
      monthlySpend: apiKeys.monthlySpend,
      allowedOrigins: apiKeys.allowedOrigins,
      tools: apiKeys.tools,
      toolsReadOnly: apiKeys.toolsReadOnly,
    })
    .from(apiKeys)
    .innerJoin(account, eq(account.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, keyHash), eq(apiKeys.active, true), isNull(account.closedAt)))
    .limit(1);
  if (!row) return null;
  const scopes = Object.freeze(row.scopes as TApiKeyScope[]);
  return Object.freeze({
    kind: 'key',
    keyId: row.keyId,
    accountId: row.accountId,
    scopes,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
    routes: row.routes ? (new Set(row.routes) as ReadonlySet<string>) : null,
    monthlyCalls: row.monthlyCalls ?? null,
    tokensPerMinute: row.tokensPerMinute ?? null,
    monthlySpendMinor: row.monthlySpend ?? null,
    allowedOrigins: new Set(row.allowedOrigins) as ReadonlySet<string>,
    tools: row.tools ? (new Set(row.tools) as ReadonlySet<string>) : null,
    toolsReadOnly: row.toolsReadOnly,
  });
}

/** `GET /api/user` for an API key: the key and its account, no person (decision 012). */
export async function keyIdentity(app: TServices, accountId: string, keyId: string): Promise<TKeyIdentity> {
  const [row, account] = await Promise.all([
    findKey(app, accountId, keyId),
    accountHeader(app.db, accountId),
  ]);
  if (!account) throw new AppError('not_found');
  return {
    kind: 'api_key',
    key_id: row.id,
    key_name: row.name,
    scope: normaliseScopes(row.scope as TApiKeyScope[]),
    account_id: accountId,
    account_name: account.name,
    plan: account.planId,
  };
}

/**
 * The key in full, decrypted from its sealed copy. Every reveal is recorded in the activity log
 * (who, which key): the console says so where a key is made, and an admin can see who read it.
 */
export async function revealKey(
  app: TServices,
  accountId: string,
  id: string,
  actorUserId: string | null = null,
): Promise<TApiKey> {
  const row = await findKey(app, accountId, id);
  await recordActivity(app.db, { accountId, actorUserId, type: 'key.revealed', data: { name: row.name } });
  return toWire(row, decryptSecret(app.config.secret, row.keyEnc));
}

export async function createKey(
  app: TServices,
  accountId: string,
  input: TCreateApiKey,
  actorUserId: string | null = null,
): Promise<TCreatedApiKey> {
  const fullKey = API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
  const keyHash = sha256(fullKey);
  const controls = await controlChanges(app, accountId, input);
  const row = await app.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        scope: normaliseScopes(input.scope),
        keyHash,
        keyEnc: encryptSecret(app.config.secret, fullKey),
        keyPrefix: fullKey.slice(0, API_KEY_VISIBLE_PREFIX_LENGTH),
        ...controls,
      })
      .returning();
    await recordActivity(tx, { accountId, actorUserId, type: 'key.created', data: { name: input.name } });
    return created;
  });
  // Drops a cached "unknown key" answer anywhere (someone may have tried it before it existed).
  await announce(app, keyHash);
  await app.webhooks.emit(accountId, 'key.created', { key_id: row!.id, name: row!.name });
  return { ...toWire(row!, maskApiKey(row!.keyPrefix)), full_key: fullKey };
}

export async function updateKey(
  app: TServices,
  accountId: string,
  id: string,
  input: TUpdateApiKey,
  actorUserId: string | null = null,
): Promise<TApiKey> {
  const row = await findKey(app, accountId, id);
  if (input.active === true && !row.active)
    throw new AppError('validation', { inputError: 'active', messageKey: 'validation.key_revoked' });
  const changes: Partial<typeof apiKeys.$inferInsert> = await controlChanges(app, accountId, input);
  if (input.name !== undefined) changes.name = input.name;
  if (input.scope !== undefined) changes.scope = normaliseScopes(input.scope);
  if (input.active === false) changes.active = false;
  if (Object.keys(changes).length === 0) return toWire(row, maskApiKey(row.keyPrefix));
  const updated = await app.db.transaction(async (tx) => {
    const [saved] = await tx
      .update(apiKeys)
      .set(changes)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)))
      .returning();
    if (!saved) throw new AppError('not_found');
    if (changes.active === false && row.active) {
      await recordActivity(tx, { accountId, actorUserId, type: 'key.revoked', data: { name: saved.name } });
    }
    return saved;
  });
  await announce(app, row.keyHash);
  if (changes.active === false && row.active)
    await app.webhooks.emit(accountId, 'key.revoked', { key_id: updated.id, name: updated.name });
  return toWire(updated, maskApiKey(updated.keyPrefix));
}

/** Deletes all the given keys of the account, or none (404) when any id is not the account's. */
export async function deleteKeys(
  app: TServices,
  accountId: string,
  ids: string[],
  actorUserId: string | null = null,
): Promise<number> {
  const unique = [...new Set(ids)];
  const hashes = await app.db.transaction(async (tx) => {
    const owned = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), inArray(apiKeys.id, unique)));
    if (owned.length !== unique.length) throw new AppError('not_found');
    const deleted = await tx
      .delete(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), inArray(apiKeys.id, unique)))
      .returning({ keyHash: apiKeys.keyHash, name: apiKeys.name });
    for (const { name } of deleted) {
      await recordActivity(tx, { accountId, actorUserId, type: 'key.deleted', data: { name } });
    }
    return deleted.map((row) => row.keyHash);
  });
  for (const keyHash of hashes) await announce(app, keyHash);
  return hashes.length;
}
