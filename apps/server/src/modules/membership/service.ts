import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNull,
  ne,
  notExists,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { TInvitableRole, TRole } from '@air/shared/permissions';
import {
  INVITE_TTL_DAYS,
  INVITES_PER_DAY,
  type TAccountUsers,
  type TInvite,
  type TMember,
} from '@air/shared/schemas/membership';
import type { TDb } from '../../db/client';
import { accountUsers } from '../../db/schema/account-users';
import { accounts } from '../../db/schema/accounts';
import { invites } from '../../db/schema/invites';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/crypto';
import { countActivity, recordActivity } from '../activity/service';
import {
  deleteUser,
  moveDefaultAccount,
  revokeSessionsIn,
  userProfiles,
  type TUserContact,
} from '../identity/service';
import './messages';

/*
 * The membership module owns accounts, their members, roles and invites (tables accounts,
 * account_users and invites). Other modules ask it (membershipsOf, roleIn, createAccount, …)
 * instead of querying those tables; it asks the identity service for users and sessions.
 * Functions take the database (or a transaction), never Fastify: the caller publishes the
 * returned changes on the change bus after the commit and sends the mails.
 */

/** An account's name and plan id; undefined when there is no such account. */
export async function accountSummary(
  db: TDb,
  accountId: string,
): Promise<{ id: string; name: string; planId: string | null } | undefined> {
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name, planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row;
}

/** The account's plan id, or null (no plan, or no such account). */
export async function accountPlanId(db: TDb, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ planId: accounts.planId })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row?.planId ?? null;
}

/**
 * Accounts with their names, for joining into one query (the endpoint registry and the
 * marketplace join it on the endpoint's account id; `closedAt` null is an open account). A plain
 * sub-select of `accounts`, which PostgreSQL folds into the outer query.
 */
export function accountNames(db: TDb, alias = 'account_names') {
  return db
    .select({ id: accounts.id, name: accounts.name, closedAt: accounts.closedAt })
    .from(accounts)
    .as(alias);
}

/**
 * Accounts with their plan id, for joining into one query (billing's entitlements join their
 * subscription on the account id). A plain sub-select of `accounts`, which PostgreSQL folds into
 * the outer query.
 */
export function accountPlans(db: TDb, alias = 'account_plans') {
  return db.select({ id: accounts.id, planId: accounts.planId }).from(accounts).as(alias);
}

/**
 * Sets the account's plan, inside the caller's transaction: billing keeps it equal to the
 * subscription's plan (sign-in, the gateway and the header read it here).
 */
export async function setAccountPlan(tx: TDb, accountId: string, planId: string): Promise<void> {
  await tx.update(accounts).set({ planId }).where(eq(accounts.id, accountId));
}

/** Creates an account, inside the caller's transaction; answers its id. */
export async function createAccount(tx: TDb, values: { name: string; planId?: string }): Promise<string> {
  const [account] = await tx.insert(accounts).values(values).returning({ id: accounts.id });
  return account!.id;
}

/** Renames an account. */
export async function renameAccount(tx: TDb, accountId: string, name: string): Promise<void> {
  await tx.update(accounts).set({ name }).where(eq(accounts.id, accountId));
}

/**
 * Deletes an account for good; everything hanging off it (members, invites, sessions, keys,
 * endpoints, …) goes with it (foreign keys cascade).
 */
export async function deleteAccount(tx: TDb, accountId: string): Promise<void> {
  await tx.delete(accounts).where(eq(accounts.id, accountId));
}

/**
 * Adds a member with a role, inside the caller's transaction which has just made the account
 * (sign-up, a master's account): no activity, no seat change.
 */
export async function addMember(
  tx: TDb,
  input: { accountId: string; userId: string; role: TRole },
): Promise<void> {
  await tx
    .insert(accountUsers)
    .values({ accountId: input.accountId, userId: input.userId, permission: input.role });
}

/** The ids of the account's members. */
export async function memberIdsOf(db: TDb, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: accountUsers.userId })
    .from(accountUsers)
    .where(eq(accountUsers.accountId, accountId));
  return rows.map((row) => row.userId);
}

/** An account in which the user has this role (the first found), if any. */
export async function accountWithRole(db: TDb, userId: string, role: TRole): Promise<string | undefined> {
  const [row] = await db
    .select({ accountId: accountUsers.accountId })
    .from(accountUsers)
    .where(and(eq(accountUsers.userId, userId), eq(accountUsers.permission, role)))
    .limit(1);
  return row?.accountId;
}

/**
 * A condition, per user row of the outer statement, that the user belongs to no account but
 * `accountId`: `deleteUsersWhere(tx, ids, (id) => noMembershipOutside(tx, id, accountId))`.
 */
export function noMembershipOutside(db: TDb, userId: SQLWrapper, accountId: string): SQL {
  return notExists(
    db
      .select({ one: accountUsers.userId })
      .from(accountUsers)
      .where(and(eq(accountUsers.userId, userId), ne(accountUsers.accountId, accountId))),
  );
}

/**
 * Roles by user and account, for joining into one query: the session check on every console
 * request joins it on the session's user and account (no row: no longer a member). A plain
 * sub-select of `account_users`, which PostgreSQL folds into the outer query.
 */
export function memberRoles(db: TDb, alias = 'member_roles') {
  return db
    .select({ userId: accountUsers.userId, accountId: accountUsers.accountId, role: accountUsers.permission })
    .from(accountUsers)
    .as(alias);
}

/** The number of the account's members (a per-seat plan bills one seat each). */
export async function memberCount(db: TDb, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(accountUsers)
    .where(eq(accountUsers.accountId, accountId));
  return Number(row?.n ?? 0);
}

/** The account's owners with their name, address and language: whom billing mails. One query. */
export async function ownerContacts(db: TDb, accountId: string): Promise<TUserContact[]> {
  const user = userProfiles(db);
  return db
    .select({ id: user.id, name: user.name, email: user.email, locale: user.locale })
    .from(accountUsers)
    .innerJoin(user, eq(user.id, accountUsers.userId))
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.permission, 'owner')));
}

export interface TMembership {
  accountId: string;
  name: string;
  role: TRole;
}

/**
 * What follows an account's member count, called inside the transaction that changed it: billing
 * makes the subscription's seat quantity follow it (its plugin registers `membersChanged`). Billing
 * reads accounts and members through this service, so membership cannot import billing's: it is
 * handed the listener instead (decision 022).
 */
export type TMemberCountListener = (tx: TDb, accountId: string) => Promise<void>;

const memberCountListeners = new Set<TMemberCountListener>();

export function listenToMemberCount(listener: TMemberCountListener): void {
  memberCountListeners.add(listener);
}

/** Called, inside the transaction, whenever an account gains or loses a member. */
export async function onMemberCountChanged(tx: TDb, accountId: string): Promise<void> {
  for (const listener of memberCountListeners) await listener(tx, accountId);
}

/** The user's memberships, oldest first (the first is the fallback account). */
export async function membershipsOf(db: TDb, userId: string): Promise<TMembership[]> {
  return db
    .select({ accountId: accounts.id, name: accounts.name, role: accountUsers.permission })
    .from(accountUsers)
    .innerJoin(accounts, eq(accounts.id, accountUsers.accountId))
    .where(eq(accountUsers.userId, userId))
    .orderBy(asc(accountUsers.createdAt), asc(accounts.name));
}

/** The role of `userId` in `accountId`, or null when not a member. */
export async function roleIn(db: TDb, userId: string, accountId: string): Promise<TRole | null> {
  const [row] = await db
    .select({ role: accountUsers.permission })
    .from(accountUsers)
    .where(and(eq(accountUsers.userId, userId), eq(accountUsers.accountId, accountId)))
    .limit(1);
  return row?.role ?? null;
}

const DAY_MS = 24 * 60 * 60_000;

function inviteExpiry(row: { dateSent: Date; expiresAt: Date | null }): Date {
  return row.expiresAt ?? new Date(row.dateSent.getTime() + INVITE_TTL_DAYS * DAY_MS);
}

function inviteView(
  row: typeof invites.$inferSelect & { inviterName?: string | null },
  now = Date.now(),
): TInvite {
  const expires = inviteExpiry(row);
  return {
    id: row.id,
    email: row.email,
    permission: row.permission,
    date_sent: row.dateSent.toISOString(),
    expires_at: expires.toISOString(),
    status: expires.getTime() <= now ? 'expired' : 'invited',
    invited_by: row.inviterName ?? null,
  };
}

function memberView(row: {
  id: string;
  name: string;
  email: string;
  role: TRole;
  verified: boolean;
  joinedAt: Date;
  lastLogin: Date | null;
}): TMember {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    permission: row.role,
    verified: row.verified,
    status: row.verified ? 'verified' : 'registered',
    date_joined: row.joinedAt.toISOString(),
    last_login: row.lastLogin?.toISOString() ?? null,
  };
}

/** The members of an account with their user's name and address: one query, joined. */
function selectMembers(db: TDb) {
  const user = userProfiles(db);
  return db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: accountUsers.permission,
      verified: user.verified,
      joinedAt: accountUsers.createdAt,
      lastLogin: user.lastLogin,
    })
    .from(accountUsers)
    .innerJoin(user, eq(user.id, accountUsers.userId))
    .$dynamic();
}

/** `GET /api/account/users`: the members and the pending (not accepted) invites. */
export async function listAccountUsers(db: TDb, accountId: string): Promise<TAccountUsers> {
  const members = await selectMembers(db)
    .where(eq(accountUsers.accountId, accountId))
    .orderBy(asc(accountUsers.createdAt));
  const inviter = userProfiles(db);
  const pending = await db
    .select({ invite: invites, inviterName: inviter.name })
    .from(invites)
    .leftJoin(inviter, eq(inviter.id, invites.invitedBy))
    .where(and(eq(invites.accountId, accountId), isNull(invites.acceptedAt)))
    .orderBy(desc(invites.dateSent));
  const now = Date.now();
  return {
    users: members.map(memberView),
    invites: pending.map((p) => inviteView({ ...p.invite, inviterName: p.inviterName }, now)),
  };
}

export interface TInviteSend {
  email: string;
  role: TInvitableRole;
  /** The raw token for the link; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export interface TInviteOutcome {
  invited: string[];
  resent: string[];
  invites: TInvite[];
  /** One mail each, to send after the commit. */
  sends: TInviteSend[];
}

/**
 * Invites several addresses at once. The whole list is checked first: an address that is already
 * a member refuses the request (409 naming it) and nothing is stored or sent. An address with a
 * pending invite gets it again with a new token (the old link stops working) and a new expiry.
 * At most INVITES_PER_DAY sends per account in 24 hours, counted under a lock on the account row
 * so concurrent requests cannot pass it together.
 */
export async function inviteMembers(
  db: TDb,
  input: { accountId: string; actorUserId: string; emails: string[]; permission: TInvitableRole },
): Promise<TInviteOutcome> {
  const emails = [...new Set(input.emails)];
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, input.accountId))
      .for('update');
    if (!account) throw new AppError('not_found');

    const user = userProfiles(tx);
    const members = await tx
      .select({ email: user.email })
      .from(accountUsers)
      .innerJoin(user, eq(user.id, accountUsers.userId))
      .where(and(eq(accountUsers.accountId, input.accountId), inArray(user.email, emails)));
    if (members.length > 0) {
      throw new AppError('conflict', {
        messageKey: 'error.invite_already_member',
        inputError: 'email',
        params: { emails: members.map((m) => m.email).join(', ') },
      });
    }

    const sentToday = await countActivity(
      tx,
      input.accountId,
      ['member.invited', 'member.invite_resent'],
      new Date(Date.now() - DAY_MS),
    );
    if (sentToday + emails.length > INVITES_PER_DAY) {
      throw new AppError('rate_limited', {
        messageKey: 'error.invite_daily_limit',
        inputError: 'email',
        params: { limit: INVITES_PER_DAY },
        retryAfter: 60 * 60,
      });
    }

    const pending = await tx
      .select()
      .from(invites)
      .where(
        and(
          eq(invites.accountId, input.accountId),
          inArray(invites.email, emails),
          isNull(invites.acceptedAt),
        ),
      );
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_DAYS * DAY_MS);
    const outcome: TInviteOutcome = { invited: [], resent: [], invites: [], sends: [] };
    for (const email of emails) {
      const token = randomToken(32);
      const existing = pending.find((p) => p.email === email);
      let row: typeof invites.$inferSelect;
      if (existing) {
        [row] = (await tx
          .update(invites)
          .set({
            tokenHash: sha256(token),
            dateSent: now,
            expiresAt,
            permission: input.permission,
            invitedBy: input.actorUserId,
          })
          .where(eq(invites.id, existing.id))
          .returning()) as [typeof invites.$inferSelect];
        outcome.resent.push(email);
      } else {
        [row] = (await tx
          .insert(invites)
          .values({
            accountId: input.accountId,
            email,
            permission: input.permission,
            invitedBy: input.actorUserId,
            dateSent: now,
            expiresAt,
            tokenHash: sha256(token),
          })
          .returning()) as [typeof invites.$inferSelect];
        outcome.invited.push(email);
      }
      await recordActivity(tx, {
        accountId: input.accountId,
        actorUserId: input.actorUserId,
        type: existing ? 'member.invite_resent' : 'member.invited',
        data: { email, role: input.permission },
      });
      outcome.invites.push(inviteView(row));
      outcome.sends.push({ email, role: input.permission, token, expiresAt });
    }
    return outcome;
  });
}

/** Deletes pending invites of the account; none of them found is 404 (another account's id too). */
export async function deleteInvites(
  db: TDb,
  input: { accountId: string; actorUserId: string; ids: string[] },
): Promise<number> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(invites)
      .where(
        and(
          eq(invites.accountId, input.accountId),
          inArray(invites.id, input.ids),
          isNull(invites.acceptedAt),
        ),
      )
      .returning({ email: invites.email });
    if (gone.length === 0) throw new AppError('not_found');
    for (const { email } of gone) {
      await recordActivity(tx, {
        accountId: input.accountId,
        actorUserId: input.actorUserId,
        type: 'member.invite_deleted',
        data: { email },
      });
    }
    return gone.length;
  });
}

/** The member as the users page lists them, or 404 when not a member of the account. */
export async function memberOf(db: TDb, accountId: string, userId: string): Promise<TMember> {
  const [row] = await selectMembers(db)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return memberView(row);
}

/**
 * An admin changes a member's role. Owner (and master) can neither be given nor taken away here,
 * and nobody edits their own role (an admin cannot lock themself out by mistake). The caller
 * publishes `{ kind: 'user' }` so every instance applies the role on the member's next request.
 */
export async function changeRole(
  db: TDb,
  input: { accountId: string; actorUserId: string; targetUserId: string; permission: TInvitableRole },
): Promise<TMember> {
  return db.transaction(async (tx) => {
    const member = await memberOf(tx, input.accountId, input.targetUserId);
    if (member.permission === 'owner' || member.permission === 'master') {
      throw new AppError('bad_request', {
        messageKey: 'error.cannot_change_owner',
        inputError: 'permission',
      });
    }
    if (input.targetUserId === input.actorUserId) {
      throw new AppError('bad_request', {
        messageKey: 'error.cannot_change_own_role',
        inputError: 'permission',
      });
    }
    if (member.permission === input.permission) return member;
    await tx
      .update(accountUsers)
      .set({ permission: input.permission })
      .where(and(eq(accountUsers.accountId, input.accountId), eq(accountUsers.userId, input.targetUserId)));
    await recordActivity(tx, {
      accountId: input.accountId,
      actorUserId: input.actorUserId,
      type: 'member.role_changed',
      data: { user_id: member.id, email: member.email, from: member.permission, to: input.permission },
    });
    return { ...member, permission: input.permission };
  });
}

export interface TRemoval {
  /** Sessions in that account, now revoked: publish each on the change bus. */
  revokedSessionIds: string[];
  /** The user had no other account and is gone. */
  userDeleted: boolean;
}

/**
 * Ends a membership: an admin removes a member, or a member leaves (actor = target). The owner
 * can do neither. The member's sessions in this account are revoked in the same transaction; a
 * user left without any account is deleted, one who belongs to another account is kept.
 */
export async function removeMember(
  db: TDb,
  input: { accountId: string; actorUserId: string | null; targetUserId: string },
): Promise<TRemoval> {
  return db.transaction(async (tx) => {
    const member = await memberOf(tx, input.accountId, input.targetUserId);
    const leaving = input.actorUserId === input.targetUserId;
    if (member.permission === 'owner' || member.permission === 'master') {
      throw new AppError('bad_request', {
        messageKey: leaving ? 'error.owner_cannot_leave' : 'error.cannot_delete_owner',
      });
    }
    const revokedSessionIds = await revokeSessionsIn(tx, input.targetUserId, input.accountId);
    await tx
      .delete(accountUsers)
      .where(and(eq(accountUsers.userId, input.targetUserId), eq(accountUsers.accountId, input.accountId)));
    const [other] = await tx
      .select({ accountId: accountUsers.accountId })
      .from(accountUsers)
      .where(eq(accountUsers.userId, input.targetUserId))
      .limit(1);
    if (other) {
      // The default account must stay one the user belongs to.
      await moveDefaultAccount(tx, input.targetUserId, input.accountId, other.accountId);
    } else {
      await deleteUser(tx, input.targetUserId);
    }
    await recordActivity(tx, {
      accountId: input.accountId,
      actorUserId: leaving || !input.actorUserId ? null : input.actorUserId,
      type: leaving ? 'member.left' : 'member.removed',
      data: { user_id: member.id, email: member.email, name: member.name },
    });
    await onMemberCountChanged(tx, input.accountId);
    return { revokedSessionIds, userDeleted: !other };
  });
}

/** The pending invite behind a link's token, or null (unknown, used or deleted). */
export async function inviteByToken(db: TDb, token: string) {
  const inviter = userProfiles(db);
  const [row] = await db
    .select({ invite: invites, accountName: accounts.name, inviterName: inviter.name })
    .from(invites)
    .innerJoin(accounts, eq(accounts.id, invites.accountId))
    .leftJoin(inviter, eq(inviter.id, invites.invitedBy))
    .where(and(eq(invites.tokenHash, sha256(token)), isNull(invites.acceptedAt)))
    .limit(1);
  if (!row) return null;
  return {
    ...row.invite,
    accountName: row.accountName,
    inviterName: row.inviterName,
    expired: inviteExpiry(row.invite).getTime() <= Date.now(),
  };
}

export type TPendingInvite = NonNullable<Awaited<ReturnType<typeof inviteByToken>>>;

/**
 * Uses an invite up and makes `userId` a member with its role, inside the caller's transaction
 * (which may also have created the user). One atomic UPDATE, so a token works once.
 */
export async function consumeInvite(
  tx: TDb,
  input: { inviteId: string; userId: string; accountId: string; role: TRole; email: string },
): Promise<void> {
  const [used] = await tx
    .update(invites)
    .set({ acceptedAt: sql`now()`, tokenHash: null })
    .where(and(eq(invites.id, input.inviteId), isNull(invites.acceptedAt)))
    .returning({ id: invites.id });
  if (!used)
    throw new AppError('validation', { messageKey: 'error.invite_invalid', inputError: 'invite_id' });
  const joined = await tx
    .insert(accountUsers)
    .values({ accountId: input.accountId, userId: input.userId, permission: input.role })
    .onConflictDoNothing()
    .returning({ userId: accountUsers.userId });
  if (joined.length > 0) {
    await recordActivity(tx, {
      accountId: input.accountId,
      actorUserId: input.userId,
      type: 'member.joined',
      data: { user_id: input.userId, email: input.email, role: input.role },
    });
    await onMemberCountChanged(tx, input.accountId);
  }
}
