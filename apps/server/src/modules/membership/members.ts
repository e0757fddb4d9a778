import { and, asc, count, eq, inArray, ne, notExists, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { TInvitableRole, TRole } from '@air/shared/permissions';
import { type TMember } from '@air/shared/schemas/membership';
import type { TDb } from '../../db/client';
import { accountUsers } from '../../db/schema/account-users';
import { accounts } from '../../db/schema/accounts';
import { AppError } from '../../lib/app-error';
import { recordActivity } from '../activity/service';
import {
  defaultAccountOf,
  deleteUser,
  moveDefaultAccount,
  moveSessionsOnRemoval,
  recordSessionEndings,
  revokeSessionsIn,
  userProfiles,
  type TSessionNotice,
  type TUserContact,
} from '../identity/service';

/**
 * Members and roles (table `account_users`): who belongs to an account with which role, adding,
 * changing and removing members, and what follows the member count (billing's seats).
 */

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

/** The owners and admins of an account: who is told about its limits. */
export async function adminContacts(db: TDb, accountId: string): Promise<TUserContact[]> {
  const user = userProfiles(db);
  return db
    .select({ id: user.id, name: user.name, email: user.email, locale: user.locale })
    .from(accountUsers)
    .innerJoin(user, eq(user.id, accountUsers.userId))
    .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.permission, ['owner', 'admin'])))
    .orderBy(asc(accountUsers.userId));
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

export function memberView(row: {
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
export function selectMembers(db: TDb) {
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

/** Where a member's sessions went when they lost an account (see `landMemberSessions`). */
export interface TLanding {
  /** Sessions moved or ended: publish each on the change bus after the commit. */
  changedSessionIds: string[];
  /** The account the member now works in; undefined when they belong to no other account. */
  movedTo: string | undefined;
}

/**
 * Where a member's sessions in an account go when they lose it (an admin removed them, they left,
 * or the owner closed the account), inside the caller's transaction, with their membership there
 * gone or about to go. A member of another account (their default when it is another one, else
 * their oldest membership) keeps working there: their default account and live sessions (not a
 * master's impersonation, which ends) move to it, each session with a one-time notice naming this
 * account for the console's next check. A member of no other account has their sessions in it
 * ended and why recorded for the console's next check; deleting the user is the caller's part.
 * `exceptSessionId`, the session of the owner closing the account, simply ends.
 */
export async function landMemberSessions(
  tx: TDb,
  input: { userId: string; accountId: string; notice: TSessionNotice; exceptSessionId?: string },
): Promise<TLanding> {
  const others = await tx
    .select({ accountId: accountUsers.accountId })
    .from(accountUsers)
    .where(and(eq(accountUsers.userId, input.userId), ne(accountUsers.accountId, input.accountId)))
    .orderBy(asc(accountUsers.createdAt));
  if (others.length === 0) {
    const ended = await revokeSessionsIn(tx, input.userId, input.accountId);
    await recordSessionEndings(
      tx,
      ended.filter((id) => id !== input.exceptSessionId),
      input.notice,
    );
    return { changedSessionIds: ended, movedTo: undefined };
  }
  const preferred = await defaultAccountOf(tx, input.userId);
  const other = others.find((row) => row.accountId === preferred) ?? others[0]!;
  // The default account must stay one the user belongs to.
  await moveDefaultAccount(tx, input.userId, input.accountId, other.accountId);
  const changedSessionIds = await moveSessionsOnRemoval(tx, {
    userId: input.userId,
    fromAccountId: input.accountId,
    toAccountId: other.accountId,
    notice: input.notice,
    exceptSessionId: input.exceptSessionId,
  });
  // A master's impersonation session does not follow the member elsewhere: it ends.
  changedSessionIds.push(...(await revokeSessionsIn(tx, input.userId, input.accountId)));
  return { changedSessionIds, movedTo: other.accountId };
}

export interface TRemoval {
  /**
   * The member's sessions in that account, now ended (the user is gone) or moved to their other
   * account: publish each on the change bus so no instance keeps the old binding cached.
   */
  changedSessionIds: string[];
  /** The user had no other account and is gone. */
  userDeleted: boolean;
}

/**
 * Ends a membership: an admin removes a member, or a member leaves (actor = target). The owner
 * can do neither. In the same transaction, a user who belongs to another account is kept: their
 * default account and their sessions in this account move to that other account (their default
 * when it is another, else their oldest membership), each session with a one-time notice naming
 * this account for the console's next check. A user left without any account is deleted with
 * their sessions, and why those sessions ended is recorded for the console's next check.
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
    const [account] = await tx
      .select({ name: accounts.name })
      .from(accounts)
      .where(eq(accounts.id, input.accountId))
      .limit(1);
    const notice = { reason: leaving ? ('left' as const) : ('removed' as const), accountName: account!.name };
    await tx
      .delete(accountUsers)
      .where(and(eq(accountUsers.userId, input.targetUserId), eq(accountUsers.accountId, input.accountId)));
    const landing = await landMemberSessions(tx, {
      userId: input.targetUserId,
      accountId: input.accountId,
      notice,
    });
    if (landing.movedTo === undefined) await deleteUser(tx, input.targetUserId);
    await recordActivity(tx, {
      accountId: input.accountId,
      actorUserId: leaving || !input.actorUserId ? null : input.actorUserId,
      type: leaving ? 'member.left' : 'member.removed',
      data: { user_id: member.id, email: member.email, name: member.name },
    });
    await onMemberCountChanged(tx, input.accountId);
    return { changedSessionIds: landing.changedSessionIds, userDeleted: landing.movedTo === undefined };
  });
}
