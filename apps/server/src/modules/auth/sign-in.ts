import { eq, sql } from 'drizzle-orm';
import { permissionsFor } from '@air/shared/permissions';
import type { TLocale } from '@air/shared/schemas/common';
import type { TSignInData, TUser, TUserSubscription } from '@air/shared/schemas/user';
import { signinLog } from '../../db/schema/signin-log';
import { AppError } from '../../lib/app-error';
import { signSessionToken } from '../../lib/jwt';
import { recordActivity } from '../activity/service';
import { issueToken, TOKEN_TTL_MS } from '../auth-otp/service';
import {
  createSession,
  defaultAccountOf,
  recordLastLogin,
  totpEnabledOf,
  userRecord,
} from '../identity/service';
import { loadSubscription, type TSubscriptionRow } from '../billing/service';
import { accountSummary, membershipsOf, type TMembership } from '../membership/service';
import { isNotificationOn } from '../notification/service';
import type { TServices, TCaller } from '../../core/services';

export type { TUser, TSignInData };

/** A session, or the pending second factor: the 5-minute token only `POST /api/auth/otp` takes. */
export type TSignInAnswer = TSignInData | { '2fa_required': true; token: string };

/**
 * The way a session is being opened. Every door but two proves the first factor only (a
 * password, a link mailed to the address, an identity provider, an invite with the password, a
 * master's impersonation link): `otp` is the second factor just proven, and `session` continues a
 * live session of the same user (switching accounts, accepting an invite while signed in), which
 * passed the second factor when it was opened.
 */
export type TSessionDoor =
  'password' | 'social' | 'magic_link' | 'sign_up' | 'invite' | 'impersonation' | 'otp' | 'session';

export interface TOpenSession {
  door: TSessionDoor;
  userId: string;
  /** The account to land in (else the user's default). */
  accountId?: string;
  /** Impersonation: the master who will hold the session (and whose second factor is asked). */
  impersonatorUserId?: string;
}

function invalidCredentials(): AppError {
  // One answer for an unknown email and a wrong password: no user enumeration.
  return new AppError('unauthenticated', { messageKey: 'error.invalid_credentials', inputError: 'password' });
}

/**
 * The one door to a session: every route that answers with a session comes through here
 * (`test/two-factor-doors.test.ts` lists them from the route table). A first-factor door of a
 * person with two-factor on answers the pending token instead (it carries the account to land in
 * and the impersonating master); the person is the user, or for impersonation the master at the
 * keyboard. Only the `otp` and `session` doors open the session at once.
 */
export async function openSession(
  app: TServices,
  request: TCaller,
  input: TOpenSession & { door: 'otp' | 'session' },
): Promise<TSignInData>;
export async function openSession(
  app: TServices,
  request: TCaller,
  input: TOpenSession,
): Promise<TSignInAnswer>;
export async function openSession(
  app: TServices,
  request: TCaller,
  input: TOpenSession,
): Promise<TSignInAnswer> {
  const { door, userId, accountId, impersonatorUserId } = input;
  if (door !== 'otp' && door !== 'session') {
    const holder = door === 'impersonation' ? impersonatorUserId : userId;
    const totpEnabled = holder === undefined ? undefined : await totpEnabledOf(app.db, holder);
    if (totpEnabled === undefined) throw invalidCredentials();
    if (totpEnabled) {
      const token = await issueToken(app.db, {
        kind: 'otp',
        userId,
        data: {
          ...(accountId ? { accountId } : {}),
          ...(impersonatorUserId ? { impersonatorUserId } : {}),
        },
        ttlMs: TOKEN_TTL_MS.otp,
      });
      return { '2fa_required': true, token };
    }
  }
  return completeSignIn(app, request, { userId, accountId, impersonatorUserId });
}

function subscriptionOf(row: TSubscriptionRow | null): TUserSubscription | null {
  if (!row) return null;
  return {
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    seats: row.seats,
    seat_price: row.seatPrice,
    currency_symbol: row.currencySymbol,
    interval: row.interval,
    current_period_start: row.currentPeriodStart.toISOString(),
    current_period_end: row.currentPeriodEnd.toISOString(),
  };
}

/**
 * Every User field of the spec (section 3) for `userId` signed into `accountId`. Throws 404 when
 * the user does not exist or is not a member of that account.
 */
export async function userPayload(app: TServices, userId: string, accountId: string): Promise<TUser> {
  const user = await userRecord(app.db, userId);
  if (!user) throw new AppError('not_found');
  const memberships = await membershipsOf(app.db, userId);
  const current = memberships.find((m) => m.accountId === accountId);
  if (!current) throw new AppError('not_found');
  const account = await accountSummary(app.db, accountId);
  const subscription = await loadSubscription(app.db, accountId);
  const plan = account?.planId ?? null;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    avatar: user.avatar,
    verified: user.verified,
    role: current.role,
    permission: permissionsFor(current.role),
    has_password: user.passwordHash !== null,
    '2fa_enabled': user.totpEnabled,
    support_enabled: user.supportEnabled,
    accounts: memberships.map((m) => ({ id: m.accountId, name: m.name })),
    default_account: user.defaultAccountId,
    account_id: accountId,
    account_name: current.name,
    locale: (user.locale === 'es' ? 'es' : 'en') as TLocale,
    dark_mode: user.darkMode,
    plan,
    // The free plan needs no payment: it is always reported active so the guard lets the user in.
    subscription:
      subscriptionOf(subscription) ?? (plan === 'free' ? freeSubscription(app, user.createdAt) : null),
    onboarded: user.onboarded,
    duplicate_user: user.duplicateUser,
    last_login: user.lastLogin?.toISOString() ?? null,
    date_created: user.createdAt.toISOString(),
  };
}

function freeSubscription(app: TServices, since: Date): TUserSubscription {
  const free = app.plans.find((p) => p.id === 'free');
  const end = new Date(since);
  end.setMonth(end.getMonth() + 1);
  return {
    status: 'active',
    cancel_at_period_end: false,
    seats: 1,
    seat_price: 0,
    currency_symbol: free?.currency_symbol ?? '$',
    interval: free?.interval ?? 'month',
    current_period_start: since.toISOString(),
    current_period_end: end.toISOString(),
  };
}

/** The account a sign-in lands in: the requested one, else the default, else the oldest membership. */
export async function pickAccount(
  app: TServices,
  userId: string,
  requested?: string | null,
): Promise<TMembership> {
  const memberships = await membershipsOf(app.db, userId);
  if (requested) {
    const match = memberships.find((m) => m.accountId === requested);
    if (match) return match;
  }
  const defaultAccountId = await defaultAccountOf(app.db, userId);
  const chosen = memberships.find((m) => m.accountId === defaultAccountId) ?? memberships[0];
  if (!chosen) throw new AppError('unauthenticated', { messageKey: 'error.no_account' });
  return chosen;
}

export function clientOf(request: TCaller): { ip: string; userAgent: string } {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 500) : '' };
}

/**
 * Signs a user in: a session row, a signed session token, the sign-in log, last_login, and the
 * new_signin mail when this IP + device pair was never seen before (not on the very first sign-in,
 * not for impersonation) and the user keeps that preference on. Returns the sign-in answer's data.
 * Only `openSession` calls it (a test fails on any other caller in the server's code); tests'
 * fixtures may, to sign a user in directly.
 */
export async function completeSignIn(
  app: TServices,
  request: TCaller,
  input: { userId: string; accountId?: string; impersonatorUserId?: string },
): Promise<TSignInData> {
  const membership = await pickAccount(app, input.userId, input.accountId);
  if (input.accountId && membership.accountId !== input.accountId) throw new AppError('not_found');
  const { ip, userAgent } = clientOf(request);

  // The session, the sign-in log, last_login and the activity entry: all or nothing.
  const { sessionId, user, newDevice } = await app.db.transaction(async (tx) => {
    const sessionId = await createSession(tx, {
      userId: input.userId,
      accountId: membership.accountId,
      impersonatorUserId: input.impersonatorUserId ?? null,
      ip,
      userAgent,
    });
    if (input.impersonatorUserId) return { sessionId, user: undefined, newDevice: false };
    const [seen] = await tx
      .select({
        any: sql<number>`count(*)::int`,
        same: sql<number>`count(*) filter (where ${signinLog.ip} = ${ip} and ${signinLog.userAgent} = ${userAgent})::int`,
      })
      .from(signinLog)
      .where(eq(signinLog.userId, input.userId));
    await tx.insert(signinLog).values({ userId: input.userId, ip, userAgent });
    const updated = await recordLastLogin(tx, input.userId);
    const fromNewDevice = Boolean(seen && seen.any > 0 && seen.same === 0);
    if (fromNewDevice) {
      await recordActivity(tx, {
        accountId: membership.accountId,
        actorUserId: input.userId,
        type: 'signin.new_device',
        data: { ip, device: userAgent.slice(0, 200) },
      });
    }
    return { sessionId, user: updated, newDevice: fromNewDevice };
  });
  const token = await signSessionToken(app.config.secret, {
    userId: input.userId,
    accountId: membership.accountId,
    role: membership.role,
    sessionId,
  });

  if (user && newDevice && (await isNotificationOn(app.db, input.userId, 'new_signin'))) {
    // A failed alert must not fail the sign-in; it is logged.
    await app.mailer
      .send({
        to: user.email,
        locale: user.locale,
        template: 'new_signin',
        params: { name: user.name, ip, device: userAgent || 'unknown', time: new Date().toISOString() },
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'new sign-in mail failed'));
  }

  const payload = await userPayload(app, input.userId, membership.accountId);
  return { token, ...payload };
}
