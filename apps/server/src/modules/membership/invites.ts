import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TInvitableRole, TRole } from '@air/shared/permissions';
import {
  INVITE_TTL_DAYS,
  INVITES_PER_DAY,
  type TAccountUsers,
  type TInvite,
} from '@air/shared/schemas/membership';
import type { TDb } from '../../db/client';
import { accountUsers } from '../../db/schema/account-users';
import { accounts } from '../../db/schema/accounts';
import { invites } from '../../db/schema/invites';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/crypto';
import { countActivity, recordActivity } from '../activity/service';
import { userProfiles } from '../identity/service';
import { memberView, onMemberCountChanged, selectMembers } from './members';

/**
 * Invites (table `invites`): sending and resending them under the daily limit, deleting them, and
 * using one up; with the users page's list of members and pending invites.
 */

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
