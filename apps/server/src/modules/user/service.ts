import { ZInvitedSignUpNew, type TInvitedSignUp, type TUserUpdate } from '@air/shared/schemas/user';
import { validationErrorOf } from '../../core/error-handler';
import { AppError } from '../../lib/app-error';
import { hashPassword } from '../../lib/password';
import { isUniqueViolation } from '../../db/errors';
import { recordActivity } from '../activity/service';
import {
  createUser,
  deleteUser,
  emailTakenByOther,
  markUserVerified,
  updateProfile,
  userContact,
  userRecord,
  userForSignUp,
  userSessionIds,
  type TProfileChanges,
} from '../identity/service';
import { assertNotBot } from '../../lib/bot-trap';
import {
  consumeInvite,
  inviteByToken,
  membershipsOf,
  onMemberCountChanged,
  renameAccount,
  roleIn,
  type TPendingInvite,
} from '../membership/service';
import { assertPasswordConfirmed } from './password';
import { openSession, type TSignInAnswer } from '../auth/service';
import { addDefaultPrefs, isNotificationOn } from '../notification/service';
import { attemptKey } from '../../lib/attempt-limiter';
import { useSignInCode } from '../two-factor/service';
import { requestEmailChange } from './verification';
import type { TServices, TCaller } from '../../core/services';

// What other modules use of passwords and verification goes through this file (decision 013).
export { assertPasswordConfirmed } from './password';
export { sendVerification } from './verification';

const emailTaken = () => new AppError('conflict', { messageKey: 'error.email_taken', inputError: 'email' });

/**
 * `PATCH /api/user`: applies only the fields sent, all or nothing: every check runs first and the
 * writes share one transaction. An email change needs a new verification.
 */
export async function updateUser(
  app: TServices,
  request: TCaller,
  auth: { userId: string; accountId: string },
  body: TUserUpdate,
): Promise<{ emailChangePending: string | null }> {
  const user = await userRecord(app.db, auth.userId);
  if (!user) throw new AppError('unauthenticated');
  const role = await roleIn(app.db, auth.userId, auth.accountId);

  if (body.account_name !== undefined && role !== 'owner' && role !== 'master')
    throw new AppError('forbidden', { messageKey: 'error.owner_only' });
  if (body.default_account !== undefined && !(await roleIn(app.db, auth.userId, body.default_account))) {
    throw new AppError('validation', { messageKey: 'error.not_a_member', inputError: 'default_account' });
  }

  const emailChanged = body.email !== undefined && body.email !== user.email;
  if (emailChanged) {
    // A stolen session alone cannot move the account to another mailbox (nor probe which are taken).
    await assertEmailChangeConfirmed(app, request, user, body);
    if (await emailTakenByOther(app.db, body.email!, user.id)) throw emailTaken();
  }

  const set: TProfileChanges = {};
  if (body.name !== undefined) set.name = body.name;
  if (body.default_account !== undefined) set.defaultAccountId = body.default_account;
  if (body.support_enabled !== undefined) set.supportEnabled = body.support_enabled;
  if (body.onboarded) set.onboarded = true;
  if (body.dark_mode !== undefined) set.darkMode = body.dark_mode;
  if (body.locale !== undefined) set.locale = body.locale;
  if (body.avatar !== undefined) set.avatar = body.avatar;
  try {
    await app.db.transaction(async (tx) => {
      if (body.account_name !== undefined) {
        await renameAccount(tx, auth.accountId, body.account_name);
      }
      await updateProfile(tx, user.id, set);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await app.changes.publish({ kind: 'user', userId: user.id });
  if (emailChanged) {
    await requestEmailChange(
      app,
      request,
      { ...user, name: set.name ?? user.name, locale: set.locale ?? user.locale },
      body.email!,
    );
  }
  return { emailChangePending: emailChanged ? body.email! : null };
}

/** The current password, or a current TOTP code for a user without one (social sign-in). */
async function assertEmailChangeConfirmed(
  app: TServices,
  request: TCaller,
  user: { id: string; email: string; passwordHash: string | null; totpEnabled: boolean },
  body: TUserUpdate,
): Promise<void> {
  if (user.passwordHash) {
    await assertPasswordConfirmed(app, request, user.id, body.password || undefined, 'password');
    return;
  }
  // Neither a password nor a second factor: nothing but the session would confirm the change.
  if (!user.totpEnabled)
    throw new AppError('validation', { messageKey: 'user.email_change_needs_factor', inputError: 'email' });
  if (!body.code)
    throw new AppError('validation', { messageKey: 'validation.code_required', inputError: 'code' });
  const keys = [attemptKey('email', user.email), attemptKey('ip', request.ip)];
  await app.attempts.reserve(keys);
  if (!(await useSignInCode(app, user.id, body.code)))
    throw new AppError('validation', { messageKey: 'error.otp_invalid', inputError: 'code' });
  await app.attempts.release(keys);
}

/**
 * `POST /api/user`: accepting an invite from its link. The token proves the address, so a new
 * user is created verified, with no plan step (the account's plan applies). An address that
 * already has a user joins after signing in: its current password, or a session of that very
 * user. The invite is used up, the member joins with its role, and the inviter is told when their
 * `invite_accepted` preference is on. Answers with a session in the inviting account.
 */
export async function acceptInvite(
  app: TServices,
  request: TCaller,
  body: TInvitedSignUp,
): Promise<TSignInAnswer> {
  assertNotBot(body.confirm_password);
  const invite = await inviteByToken(app.db, body.invite_id);
  if (!invite)
    throw new AppError('validation', { messageKey: 'error.invite_invalid', inputError: 'invite_id' });
  if (invite.expired) {
    throw new AppError('validation', { messageKey: 'error.invite_expired', inputError: 'invite_id' });
  }
  if (invite.email.toLowerCase() !== body.email) {
    throw new AppError('validation', { messageKey: 'error.invite_email_mismatch', inputError: 'email' });
  }
  const existing = await userForSignUp(app.db, body.email);
  let passwordHash: string | null = null;
  const auth = request.auth;
  const signedInAsInvitee = existing !== undefined && auth?.kind === 'session' && auth.userId === existing.id;
  if (existing) {
    if (!signedInAsInvitee) {
      if (!existing.passwordHash)
        throw new AppError('validation', { messageKey: 'error.invite_sign_in_first', inputError: 'email' });
      await assertPasswordConfirmed(app, request, existing.id, body.password, 'password');
    }
  } else {
    // A new address needs what the console's form asks of it: the shared ZInvitedSignUpNew.
    const parsed = ZInvitedSignUpNew.safeParse(body);
    if (!parsed.success) throw validationErrorOf(parsed.error.issues[0]!);
    passwordHash = await hashPassword(parsed.data.password);
  }

  let userId: string;
  try {
    userId = await app.db.transaction(async (tx) => {
      let id = existing?.id;
      if (!id) {
        id = await createUser(tx, {
          name: body.name!,
          email: body.email,
          passwordHash,
          locale: request.locale,
          defaultAccountId: invite.accountId,
          verified: true,
          onboarded: false,
        });
        await addDefaultPrefs(tx, id);
      } else if (!existing!.verified) {
        await markUserVerified(tx, id);
      }
      await consumeInvite(tx, {
        inviteId: invite.id,
        userId: id,
        accountId: invite.accountId,
        role: invite.permission,
        email: body.email,
      });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await app.changes.publish({ kind: 'user', userId });
  await notifyInviter(app, request, invite, { name: existing?.name ?? body.name!, email: body.email });
  // Signed in as the invitee already: that session passed two-factor. Otherwise the password was
  // the first factor, and two-factor is asked when on.
  return openSession(app, request, {
    door: signedInAsInvitee ? 'session' : 'invite',
    userId,
    accountId: invite.accountId,
  });
}

async function notifyInviter(
  app: TServices,
  request: TCaller,
  invite: TPendingInvite,
  member: { name: string; email: string },
): Promise<void> {
  if (!invite.invitedBy) return;
  // Told only while still a member of the account they invited to.
  const inviter = await userContact(app.db, invite.invitedBy);
  if (!inviter || !(await roleIn(app.db, inviter.id, invite.accountId))) return;
  if (!(await isNotificationOn(app.db, inviter.id, 'invite_accepted'))) return;
  await app.mailer
    .send({
      to: inviter.email,
      locale: inviter.locale,
      template: 'invite_accepted',
      params: {
        name: inviter.name,
        member_name: member.name,
        member_email: member.email,
        account_name: invite.accountName,
      },
    })
    .catch((error: unknown) => request.log.error({ err: error }, 'invite accepted mail failed'));
}

/**
 * `DELETE /api/user`: a user deletes themself, leaving every account they belong to; refused while
 * they own an account.
 */
export async function deleteSelf(app: TServices, userId: string): Promise<void> {
  const memberships = await membershipsOf(app.db, userId);
  if (memberships.some((m) => m.role === 'owner')) {
    throw new AppError('bad_request', { messageKey: 'error.owner_cannot_leave' });
  }
  const sessionIds = await app.db.transaction(async (tx) => {
    const user = await userContact(tx, userId);
    const ids = await userSessionIds(tx, userId);
    await deleteUser(tx, userId);
    for (const m of memberships) {
      await recordActivity(tx, {
        accountId: m.accountId,
        actorUserId: null,
        type: 'member.left',
        data: { user_id: userId, email: user?.email ?? '', name: user?.name ?? '' },
      });
      await onMemberCountChanged(tx, m.accountId);
    }
    return ids;
  });
  for (const id of sessionIds) await app.changes.publish({ kind: 'session', sessionId: id });
  await app.changes.publish({ kind: 'user', userId });
}
