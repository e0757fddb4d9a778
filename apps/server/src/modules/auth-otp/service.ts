/**
 * The one-time token store (`one_time_tokens`, owned by auth-otp): verification, reset, magic,
 * social, impersonation links and the pending second step. Every door issues and uses its tokens
 * through here; only a hash is stored.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { oneTimeTokens, type TOneTimeTokenKind } from '../../db/schema/one-time-tokens';
import { randomToken, sha256 } from '../../lib/crypto';

export type TOneTimeToken = typeof oneTimeTokens.$inferSelect;

export interface TIssueTokenInput {
  kind: TOneTimeTokenKind;
  userId?: string;
  email?: string;
  data?: Record<string, unknown>;
  ttlMs: number;
}

/** Verification, reset and magic links live 15 minutes; impersonation, OTP and social 5. */
export const TOKEN_TTL_MS = {
  verify: 15 * 60_000,
  reset: 15 * 60_000,
  magic: 15 * 60_000,
  impersonate: 5 * 60_000,
  otp: 5 * 60_000,
  social: 5 * 60_000,
} as const satisfies Record<TOneTimeTokenKind, number>;

/** Issues a single-use token and returns it raw; only its SHA-256 is stored. */
export async function issueToken(db: TDb, input: TIssueTokenInput): Promise<string> {
  const raw = randomToken(32);
  await db.insert(oneTimeTokens).values({
    kind: input.kind,
    tokenHash: sha256(raw),
    userId: input.userId ?? null,
    email: input.email?.toLowerCase() ?? null,
    data: input.data ?? null,
    expiresAt: new Date(Date.now() + input.ttlMs),
  });
  return raw;
}

/** The row of a live token: this raw token, of this kind, unused and unexpired. */
function live(kind: TOneTimeTokenKind, rawToken: string) {
  return and(
    eq(oneTimeTokens.tokenHash, sha256(rawToken)),
    eq(oneTimeTokens.kind, kind),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, sql`now()`),
  );
}

/**
 * A live token without using it up: the OTP step must keep its pending token through a wrong
 * code, and only `consumeToken` after a right one.
 */
export async function peekToken(
  db: TDb,
  kind: TOneTimeTokenKind,
  rawToken: string,
): Promise<TOneTimeToken | null> {
  const [row] = await db.select().from(oneTimeTokens).where(live(kind, rawToken)).limit(1);
  return row ?? null;
}

/**
 * Uses a token up: one atomic UPDATE, so two concurrent uses cannot both succeed. Returns the row,
 * or null when the token is unknown, of another kind, already used or expired.
 */
export async function consumeToken(
  db: TDb,
  kind: TOneTimeTokenKind,
  rawToken: string,
): Promise<TOneTimeToken | null> {
  if (typeof rawToken !== 'string' || rawToken.length === 0 || rawToken.length > 512) return null;
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(live(kind, rawToken))
    .returning();
  return row ?? null;
}

/** Makes every unused token of a kind for a user useless (e.g. older reset links after a reset). */
export async function revokeTokens(db: TDb, kind: TOneTimeTokenKind, userId: string): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(oneTimeTokens.kind, kind), eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt)));
}
