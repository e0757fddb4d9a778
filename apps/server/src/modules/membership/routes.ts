import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hasPermission } from '@air/shared/permissions';
import { ZEnvelope, ZIdParams } from '@air/shared/schemas/common';
import {
  INVITE_TTL_DAYS,
  inviteAddresses,
  ZAccountUsers,
  ZDeletedCount,
  ZDeleteInvites,
  ZInviteInfo,
  ZInviteRequest,
  ZInviteResult,
  ZInviteTokenParams,
  ZMember,
  ZRoleChange,
  ZSignoutAnswer,
} from '@air/shared/schemas/membership';
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

  app.get(
    '/account/users',
    { preHandler: admin, schema: { tags, response: { 200: ZEnvelope(ZAccountUsers) } } },
    async (request) => ({ data: await listAccountUsers(app.db, request.auth!.accountId) }),
  );

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

  app.post(
    '/invite',
    {
      preHandler: admin,
      schema: { tags, body: ZInviteRequest, response: { 200: ZEnvelope(ZInviteResult) } },
    },
    async (request) => {
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
    },
  );

  const deleted = async (request: FastifyRequest, ids: string[]) => {
    const auth = sessionOf(request);
    const count = await deleteInvites(app.db, { accountId: auth.accountId, actorUserId: auth.userId, ids });
    return { data: { deleted: count }, message: t(request.locale, 'membership.invite_deleted', { count }) };
  };

  app.delete(
    '/invite/:id',
    { preHandler: admin, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZDeletedCount) } } },
    async (request) => deleted(request, [request.params.id]),
  );

  app.delete(
    '/invite',
    {
      preHandler: admin,
      schema: { tags, body: ZDeleteInvites, response: { 200: ZEnvelope(ZDeletedCount) } },
    },
    async (request) => deleted(request, request.body.ids),
  );

  // What an invite link opens. The token is the proof: no session needed.
  app.get(
    '/invite/:token',
    { schema: { tags, params: ZInviteTokenParams, response: { 200: ZEnvelope(ZInviteInfo) } } },
    async (request) => {
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
    },
  );

  app.patch(
    '/user/:id',
    {
      preHandler: admin,
      schema: { tags, params: ZIdParams, body: ZRoleChange, response: { 200: ZEnvelope(ZMember) } },
    },
    async (request) => {
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
    },
  );

  // An admin removes a member; any member (not the owner) leaves with their own id.
  app.delete(
    '/user/:id',
    {
      preHandler: signedIn,
      schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZSignoutAnswer) } },
    },
    async (request) => {
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
      for (const id of removal.revokedSessionIds)
        await app.changes.publish({ kind: 'session', sessionId: id });
      await app.changes.publish({ kind: 'user', userId: request.params.id });
      return {
        data: { signout: self },
        message: t(request.locale, self ? 'membership.left' : 'membership.removed'),
      };
    },
  );
};

export default membershipRoutes;
