import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TInvitedSignUp, TSignInData, TUserUpdate } from '@air/shared/schemas/user';
import { accounts, accountUsers, invites, notificationPrefs, sessions, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/password';
import { isUniqueViolation } from '../account/db-errors';
import { syncSeats } from '../account/plan';
import { assertExistingPassword, assertNotBot } from '../account/sign-up';
import { completeSignIn, membershipsOf, roleIn } from '../auth/sign-in';
import { DEFAULT_PREFS, isNotificationOn } from '../notification/service';
import { sendVerification } from './verification';

const emailTaken = () => new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });

/** `PATCH /api/user`: applies only the fields sent. An email change needs a new verification. */
export async function updateUser(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: { userId: string; accountId: string },
  body: TUserUpdate,
): Promise<void> {
  const [user] = await app.db.select().from(users).where(eq(users.id, auth.userId)).limit(1);
  if (!user) throw new AppError('unauthenticated');
  const role = await roleIn(app, auth.userId, auth.accountId);

  if (body.account_name !== undefined) {
    if (role !== 'owner' && role !== 'master')
      throw new AppError('forbidden', { messageKey: 'error.owner_only' });
    await app.db.update(accounts).set({ name: body.account_name }).where(eq(accounts.id, auth.accountId));
  }
  if (body.default_account !== undefined && !(await roleIn(app, auth.userId, body.default_account))) {
    throw new AppError('validation', { messageKey: 'error.not_a_member', inputError: 'default_account' });
  }

  const emailChanged = body.email !== undefined && body.email !== user.email;
  if (emailChanged) {
    const [taken] = await app.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, body.email!), ne(users.id, user.id)))
      .limit(1);
    if (taken) throw emailTaken();
  }

  const set: Partial<typeof users.$inferInsert> = {};
  if (body.name !== undefined) set.name = body.name;
  if (emailChanged) Object.assign(set, { email: body.email, verified: false });
  if (body.default_account !== undefined) set.defaultAccountId = body.default_account;
  if (body.support_enabled !== undefined) set.supportEnabled = body.support_enabled;
  if (body.onboarded) set.onboarded = true;
  if (body.dark_mode !== undefined) set.darkMode = body.dark_mode;
  if (body.locale !== undefined) set.locale = body.locale;
  if (body.avatar !== undefined) set.avatar = body.avatar;
  if (Object.keys(set).length > 0) {
    try {
      await app.db.update(users).set(set).where(eq(users.id, user.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }
  await app.changes.publish({ kind: 'user', userId: user.id });
  if (emailChanged) {
    await sendVerification(app, request, {
      id: user.id,
      name: set.name ?? user.name,
      email: body.email!,
      locale: set.locale ?? user.locale,
    });
  }
}

/**
 * `POST /api/user`: sign-up through an invite. The address must be the invited one (the invite
 * mail proved it, so the user is verified). A new user is created; an existing one confirms with
 * their current password. The invite is used up, the member joins with the invite's role, and the
 * inviter is told when their `invite_accepted` preference is on.
 */
export async function acceptInvite(
  app: FastifyInstance,
  request: FastifyRequest,
  body: TInvitedSignUp,
): Promise<TSignInData> {
  assertNotBot(body.confirm_password);
  const [invite] = await app.db.select().from(invites).where(eq(invites.id, body.invite_id)).limit(1);
  if (!invite || invite.acceptedAt)
    throw new AppError('validation', { messageKey: 'error.invite_invalid', inputError: 'invite_id' });
  if (invite.email.toLowerCase() !== body.email) {
    throw new AppError('validation', { messageKey: 'error.invite_email_mismatch', inputError: 'email' });
  }
  const [existing] = await app.db.select().from(users).where(eq(users.email, body.email)).limit(1);
  if (existing) await assertExistingPassword(app, request, existing, body.password);
  const passwordHash = existing ? null : await hashPassword(body.password);

  let userId: string;
  try {
    userId = await app.db.transaction(async (tx) => {
      // Used up atomically: a second acceptance of the same invite finds nothing to update.
      const [used] = await tx
        .update(invites)
        .set({ acceptedAt: new Date() })
        .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt)))
        .returning({ acceptedAt: invites.acceptedAt });
      if (!used)
        throw new AppError('validation', { messageKey: 'error.invite_invalid', inputError: 'invite_id' });
      let id = existing?.id;
      if (!id) {
        const [created] = await tx
          .insert(users)
          .values({
            name: body.name,
            email: body.email,
            passwordHash,
            verified: true,
            locale: request.locale,
            defaultAccountId: invite.accountId,
          })
          .returning({ id: users.id });
        id = created!.id;
        await tx
          .insert(notificationPrefs)
          .values(Object.entries(DEFAULT_PREFS).map(([name, active]) => ({ userId: id!, name, active })));
      } else if (!existing!.verified) {
        await tx.update(users).set({ verified: true }).where(eq(users.id, id));
      }
      await tx
        .insert(accountUsers)
        .values({ accountId: invite.accountId, userId: id, permission: invite.permission })
        .onConflictDoNothing();
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await syncSeats(app.db, invite.accountId);
  await app.changes.publish({ kind: 'user', userId });
  await notifyInviter(app, request, invite, { name: existing?.name ?? body.name, email: body.email });
  return completeSignIn(app, request, { userId, accountId: invite.accountId });
}

async function notifyInviter(
  app: FastifyInstance,
  request: FastifyRequest,
  invite: typeof invites.$inferSelect,
  member: { name: string; email: string },
): Promise<void> {
  if (!invite.invitedBy) return;
  const [inviter] = await app.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      locale: users.locale,
      account: accounts.name,
    })
    .from(users)
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, invite.accountId)),
    )
    .innerJoin(accounts, eq(accounts.id, invite.accountId))
    .where(eq(users.id, invite.invitedBy))
    .limit(1);
  if (!inviter || !(await isNotificationOn(app.db, inviter.id, 'invite_accepted'))) return;
  await app.mailer
    .send({
      to: inviter.email,
      locale: inviter.locale,
      template: 'invite_accepted',
      params: {
        name: inviter.name,
        member_name: member.name,
        member_email: member.email,
        account_name: inviter.account,
      },
    })
    .catch((error: unknown) => request.log.error({ err: error }, 'invite accepted mail failed'));
}

/** `DELETE /api/user`: a user deletes themself; refused while they own an account. */
export async function deleteSelf(app: FastifyInstance, userId: string): Promise<void> {
  const memberships = await membershipsOf(app, userId);
  if (memberships.some((m) => m.role === 'owner')) {
    throw new AppError('bad_request', { messageKey: 'error.owner_cannot_leave' });
  }
  const sessionIds = await app.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  await app.db.delete(users).where(eq(users.id, userId));
  for (const m of memberships) await syncSeats(app.db, m.accountId);
  for (const { id } of sessionIds) await app.changes.publish({ kind: 'session', sessionId: id });
  await app.changes.publish({ kind: 'user', userId });
}

/**
 * `DELETE /api/user/{id}`: an admin removes a member from the caller's account (another account's
 * user is 404). The owner cannot be removed. A member left without any account is deleted.
 */
export async function removeMember(
  app: FastifyInstance,
  accountId: string,
  targetUserId: string,
): Promise<void> {
  const role = await roleIn(app, targetUserId, accountId);
  if (!role) throw new AppError('not_found');
  if (role === 'owner' || role === 'master')
    throw new AppError('bad_request', { messageKey: 'error.cannot_delete_owner' });
  const revoked = await app.db
    .delete(sessions)
    .where(and(eq(sessions.userId, targetUserId), eq(sessions.accountId, accountId)))
    .returning({ id: sessions.id });
  await app.db
    .delete(accountUsers)
    .where(and(eq(accountUsers.userId, targetUserId), eq(accountUsers.accountId, accountId)));
  if ((await membershipsOf(app, targetUserId)).length === 0) {
    await app.db.delete(users).where(eq(users.id, targetUserId));
  }
  await syncSeats(app.db, accountId);
  for (const { id } of revoked) await app.changes.publish({ kind: 'session', sessionId: id });
  await app.changes.publish({ kind: 'user', userId: targetUserId });
}
