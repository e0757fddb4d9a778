import type { TDb } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { consumeToken, issueToken, TOKEN_TTL_MS } from '../auth-otp/service';
import { openSession, type TSignInAnswer } from '../auth/service';
import { impersonationFlags, markMaster, oldestMasters, userForImpersonation } from '../identity/service';
import { accountWithRole, addMember, createAccount } from '../membership/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * Impersonation (server contract section 3): an operator with shell access marks a master
 * (`npm run cli -- create-master EMAIL`) and mints 5-minute single-use links to sign in as a user
 * (`npm run cli -- impersonate EMAIL`). No HTTP route can mint one. The session records the master.
 */

export class CliError extends Error {}

export const MASTER_ACCOUNT_NAME = 'Master';

/** The user with an address as typed at the shell. */
function userByEmail(db: TDb, email: string) {
  return userForImpersonation(db, email.trim().toLowerCase());
}

/**
 * Marks an existing user master: `users.is_master`, plus the `master` role in a dedicated
 * "Master" account. Their own memberships keep their roles, because the spec's master role
 * lacks `developer` and would take their API keys away. Idempotent.
 */
export async function makeMaster(
  db: TDb,
  email: string,
): Promise<{ userId: string; accountId: string; created: boolean }> {
  const user = await userByEmail(db, email);
  if (!user) throw new CliError(`No user has the email address ${email}. Sign up first.`);
  return db.transaction(async (tx) => {
    await markMaster(tx, user.id);
    const existing = await accountWithRole(tx, user.id, 'master');
    if (existing) return { userId: user.id, accountId: existing, created: false };
    const accountId = await createAccount(tx, { name: MASTER_ACCOUNT_NAME, planId: 'free' });
    await addMember(tx, { accountId, userId: user.id, role: 'master' });
    return { userId: user.id, accountId, created: true };
  });
}

/**
 * A 5-minute single-use link signing in as `email`, minted for a master (`asEmail`, or the only
 * master when there is exactly one).
 */
export async function mintImpersonationLink(
  db: TDb,
  appUrl: string,
  email: string,
  asEmail?: string,
): Promise<{ url: string; expiresAt: Date; masterEmail: string }> {
  const target = await userByEmail(db, email);
  if (!target) throw new CliError(`No user has the email address ${email}.`);
  let master;
  if (asEmail) {
    master = await userByEmail(db, asEmail);
    if (!master?.isMaster)
      throw new CliError(`${asEmail} is not a master. Run: npm run cli -- create-master ${asEmail}`);
  } else {
    const masters = await oldestMasters(db, 2);
    if (masters.length === 0)
      throw new CliError('There is no master yet. Run: npm run cli -- create-master EMAIL');
    if (masters.length > 1) throw new CliError('There are several masters: say which with --as MASTER_EMAIL');
    master = masters[0]!;
  }
  if (master.id === target.id)
    throw new CliError('A master cannot impersonate themselves: sign in normally.');
  if (!target.supportEnabled)
    throw new CliError(
      `${email} has not allowed support access (profile: support_enabled). Ask them to turn it on first.`,
    );
  const token = await issueToken(db, {
    kind: 'impersonate',
    userId: target.id,
    data: { impersonatorUserId: master.id },
    ttlMs: TOKEN_TTL_MS.impersonate,
  });
  return {
    url: `${appUrl}/signin/impersonate?token=${encodeURIComponent(token)}`,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS.impersonate),
    masterEmail: master.email,
  };
}

/**
 * `POST /api/auth/impersonate`: uses the link up and signs in as the user, recording the master
 * on the session. With two-factor on for the master, the master's code is asked (the person who
 * will hold the session); the user's own two-factor is not theirs to give. A master demoted since
 * minting cannot use the link.
 */
export async function signInByImpersonation(
  app: TServices,
  request: TCaller,
  token: string,
): Promise<TSignInAnswer> {
  const ipKey = attemptKey('ip', request.ip);
  await app.attempts.reserve([ipKey]);
  const row = await consumeToken(app.db, 'impersonate', token);
  const impersonatorUserId = row?.data?.impersonatorUserId;
  // The user may have withdrawn support access since the link was minted.
  const supportEnabled = row?.userId
    ? ((await impersonationFlags(app.db, row.userId))?.supportEnabled ?? false)
    : false;
  const isMaster =
    typeof impersonatorUserId === 'string' &&
    ((await impersonationFlags(app.db, impersonatorUserId))?.isMaster ?? false);
  if (!row?.userId || typeof impersonatorUserId !== 'string' || !isMaster || !supportEnabled) {
    throw new AppError('unauthenticated', { messageKey: 'error.impersonation_invalid' });
  }
  await app.attempts.release([ipKey]);
  request.log.info({ userId: row.userId, impersonatorUserId }, 'impersonation sign-in');
  return openSession(app, request, { door: 'impersonation', userId: row.userId, impersonatorUserId });
}
