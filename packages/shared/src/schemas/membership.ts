import { z } from 'zod';
import { isEmail, missingError } from '../validation';
import { ZInvitableRole, ZRole } from './roles';

/**
 * Teams: members, invites and roles (spec sections 2 "Users", 3 "Invite", 4 "Invite status").
 *
 * Wire shapes:
 * - `GET /api/account/users` → `{ data: TAccountUsers }`.
 * - `POST /api/invite` `{ email, permission }` → `{ data: TInviteResult }`; `email` holds one or
 *   more addresses separated by commas, spaces or new lines. An address with a pending invite is
 *   re-sent (that is also how the console resends).
 * - `DELETE /api/invite/{id}`, `DELETE /api/invite` `{ ids }` → `{ data: { deleted } }`.
 * - `PATCH /api/user/{id}` `{ permission }` → `{ data: TMember }` (admin changes a member's role).
 * - `DELETE /api/user/{id}` → `{ data: { signout } }` (admin removes; anyone leaves with their own id).
 * - `GET /api/invite/{token}` (no session) → `{ data: TInviteInfo }`: what the invite link opens.
 */

/** Invites expire this long after they were (re)sent. */
export const INVITE_TTL_DAYS = 7;
/** Invitations (new or re-sent) an account may send in 24 hours. */
export const INVITES_PER_DAY = 100;
/** Addresses in one invite request. */
export const INVITE_MAX_ADDRESSES = 50;

/** Splits the invite field: commas, semicolons, spaces and new lines separate addresses. */
export function splitEmails(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

/** An address longer than this is refused (the most an address can be, RFC 5321). */
export const INVITE_ADDRESS_MAX_LENGTH = 254;

/** The invite field's distinct addresses, in the order given (lower-cased). */
export function inviteAddresses(value: string): string[] {
  return [...new Set(splitEmails(value))];
}

/**
 * Why the invite field's addresses cannot be invited, as a message key and its parameters, or
 * null when they can: every address must be an email of at most 254 characters (the whole list is
 * refused naming each bad one), and at most 50 addresses at once. An empty list is the schema's
 * own `validation.invite_email_required`.
 */
export function inviteAddressesProblem(
  emails: readonly string[],
): { key: string; params: Record<string, string | number> } | null {
  const bad = emails.filter((email) => email.length > INVITE_ADDRESS_MAX_LENGTH || !isEmail(email));
  if (bad.length > 0) return { key: 'validation.invite_emails_invalid', params: { emails: bad.join(', ') } };
  if (emails.length > INVITE_MAX_ADDRESSES) {
    return { key: 'validation.invite_too_many', params: { max: INVITE_MAX_ADDRESSES } };
  }
  return null;
}

export const ZInviteRequest = z.strictObject({
  email: z
    .string({ error: missingError('validation.invite_email_required') })
    .max(20_000)
    .superRefine((value, ctx) => {
      const emails = inviteAddresses(value);
      if (emails.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'validation.invite_email_required' });
        return;
      }
      const problem = inviteAddressesProblem(emails);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.key, params: problem.params });
    }),
  permission: ZInvitableRole.default('user'),
});
export type TInviteRequest = z.input<typeof ZInviteRequest>;

export const ZMemberStatus = z.enum(['registered', 'verified']);
export const ZInviteStatus = z.enum(['invited', 'expired']);

export const ZMember = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  permission: ZRole,
  verified: z.boolean(),
  status: ZMemberStatus,
  date_joined: z.string(),
  last_login: z.string().nullable(),
});
export type TMember = z.infer<typeof ZMember>;

export const ZInvite = z.object({
  id: z.uuid(),
  email: z.string(),
  permission: ZRole,
  date_sent: z.string(),
  expires_at: z.string(),
  status: ZInviteStatus,
  invited_by: z.string().nullable(),
});
export type TInvite = z.infer<typeof ZInvite>;

export const ZAccountUsers = z.object({ users: z.array(ZMember), invites: z.array(ZInvite) });
export type TAccountUsers = z.infer<typeof ZAccountUsers>;

export const ZInviteResult = z.object({
  /** Addresses that got a new invite. */
  invited: z.array(z.string()),
  /** Addresses whose pending invite was sent again. */
  resent: z.array(z.string()),
  invites: z.array(ZInvite),
});
export type TInviteResult = z.infer<typeof ZInviteResult>;

export const ZRoleChange = z.strictObject({ permission: ZInvitableRole });
export type TRoleChange = z.infer<typeof ZRoleChange>;

export const ZDeleteInvites = z.strictObject({ ids: z.array(z.uuid()).min(1).max(500) });
export const ZDeletedCount = z.object({ deleted: z.number().int() });
export const ZSignoutAnswer = z.object({ signout: z.boolean() });

export const ZInviteTokenParams = z.strictObject({ token: z.string().min(16).max(128) });

/** What an invite link opens: who invites, to which account, and how to accept. */
export const ZInviteInfo = z.object({
  email: z.string(),
  account_name: z.string(),
  inviter_name: z.string().nullable(),
  permission: ZRole,
  /** The address already has a user: accept by signing in (password or session), not sign-up. */
  existing_user: z.boolean(),
});
export type TInviteInfo = z.infer<typeof ZInviteInfo>;
