import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasPermission } from '@air/shared/permissions';
import { INVITE_TTL_DAYS, inviteAddresses } from '@air/shared/schemas/membership';
import { AppError } from '../../lib/app-error';
import { t } from '../../i18n';
import type { TAuth } from '../../core/credentials';
import '../../i18n/identity';
import './messages';
import { userContact, userIdByEmail } from '../identity/service';
import {
  accountSummary,
  changeRole,
  deleteInvites,
  inviteByToken,
  inviteMembers,
  listAccountUsers,
  removeMember,
  type TInviteSend,
} from './service';
import { route } from '../../core/route';

type TSessionAuth = Extract<TAuth, { kind: 'session' }>;

function sessionOf(request: FastifyRequest): TSessionAuth {
  const auth = request.auth;
  if (auth?.kind !== 'session') throw new AppError('unauthenticated');
  return auth;
}

/**
 * Teams (spec sections 2 "Users", 3 "Invite", 6): the users page's list, invitations, role changes
 * and removals. Invited sign-up itself is `POST /api/user` (user module) and calls this module.
 */
const membershipRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['membership'];
  const admin = app.authorize({ permission: 'admin', sessionOnly: true });
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(app, 'GET /api/account/users', { preHandler: admin, schema: { tags } }, async (request) => ({
    data: await listAccountUsers(app.db, request.auth!.accountId),
  }));

  async function sendInvites(request: FastifyRequest, auth: TSessionAuth, sends: TInviteSend[]) {
    if (sends.length === 0) return;
    const inviter = await userContact(app.db, auth.userId);
    const accountName = (await accountSummary(app.db, auth.accountId))?.name ?? '';
    const base = app.config.appUrl.replace(/\/+$/, '');
    for (const send of sends) {
      // The invite is stored and listed; a failed mail is logged and can be re-sent from the list.
      await app.mailer
        .send({
          to: send.email,
          locale: request.locale,
          template: 'invite',
          params: {
            inviter_name: inviter?.name ?? '',
            account_name: accountName,
            role: send.role,
            url: `${base}/signup/user?token=${encodeURIComponent(send.token)}`,
            days: String(INVITE_TTL_DAYS),
          },
        })
        .catch((error: unknown) => request.log.error({ err: error }, 'invite mail failed'));
    }
  }

  route(app, 'POST /api/invite', { preHandler: admin, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    // The schema (ZInviteRequest) has refused a bad address or too many of them.
    const emails = inviteAddresses(request.body.email);
    const outcome = await inviteMembers(app.db, {
      accountId: auth.accountId,
      actorUserId: auth.userId,
      emails,
      permission: request.body.permission,
    });
    await sendInvites(request, auth, outcome.sends);
    const { sends: _sends, ...data } = outcome;
    return { data, message: t(request.locale, 'membership.invited', { count: emails.length }) };
  });

  const deleted = async (request: FastifyRequest, ids: string[]) => {
    const auth = sessionOf(request);
    const count = await deleteInvites(app.db, { accountId: auth.accountId, actorUserId: auth.userId, ids });
    return { data: { deleted: count }, message: t(request.locale, 'membership.invite_deleted', { count }) };
  };

  route(app, 'DELETE /api/invite/:id', { preHandler: admin, schema: { tags } }, async (request) =>
    deleted(request, [request.params.id]),
  );

  route(app, 'DELETE /api/invite', { preHandler: admin, schema: { tags } }, async (request) =>
    deleted(request, request.body.ids),
  );

  // What an invite link opens. The token is the proof: no session needed.
  route(app, 'GET /api/invite/:token', { schema: { tags } }, async (request) => {
    const invite = await inviteByToken(app.db, request.params.token);
    if (!invite) throw new AppError('not_found', { messageKey: 'error.invite_invalid' });
    if (invite.expired) throw new AppError('bad_request', { messageKey: 'error.invite_expired' });
    const existing = await userIdByEmail(app.db, invite.email);
    return {
      data: {
        email: invite.email,
        account_name: invite.accountName,
        inviter_name: invite.inviterName,
        permission: invite.permission,
        existing_user: Boolean(existing),
      },
    };
  });

  route(app, 'PATCH /api/user/:id', { preHandler: admin, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    const data = await changeRole(app.db, {
      accountId: auth.accountId,
      actorUserId: auth.userId,
      targetUserId: request.params.id,
      permission: request.body.permission,
    });
    // Every instance drops the member's cached sessions: the new role applies to the next request.
    await app.changes.publish({ kind: 'user', userId: request.params.id });
    return { data, message: t(request.locale, 'membership.role_changed') };
  });

  // An admin removes a member; any member (not the owner) leaves with their own id.
  route(app, 'DELETE /api/user/:id', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = sessionOf(request);
    const self = request.params.id === auth.userId;
    if (!self && !hasPermission(auth.role, 'admin')) {
      throw new AppError('forbidden', { messageKey: 'error.remove_needs_admin' });
    }
    const removal = await removeMember(app.db, {
      accountId: auth.accountId,
      actorUserId: auth.userId,
      targetUserId: request.params.id,
    });
    for (const id of removal.changedSessionIds) await app.changes.publish({ kind: 'session', sessionId: id });
    await app.changes.publish({ kind: 'user', userId: request.params.id });
    return {
      data: { signout: self },
      message: t(request.locale, self ? 'membership.left' : 'membership.removed'),
    };
  });
};

export default membershipRoutes;
