import { z } from 'zod';
import { ZRemovalNotice } from './common';
import { ZEmailAddress } from './fields';
import { ZSignInData, ZStrongPassword, ZUser } from './user';

/**
 * `POST /api/auth`: email and password, or a one-time sign-in token (social sign-in). One object
 * with optional fields, so a missing password is reported on its field; the service requires
 * either the pair or the token.
 */
export const ZSignIn = z.strictObject({
  email: z.string().trim().toLowerCase().min(1, { error: 'validation.email_required' }).max(254).optional(),
  password: z.string().min(1, { error: 'validation.password_required' }).max(200).optional(),
  token: z.string().min(1).max(512).optional(),
});
export type TSignIn = z.infer<typeof ZSignIn>;

/** With two-factor on, the sign-in answer is this instead of a session. */
export const ZTwoFactorRequired = z.object({ '2fa_required': z.literal(true), token: z.string() });
export type TTwoFactorRequired = z.infer<typeof ZTwoFactorRequired>;

/** Every sign-in (password, social token, magic link): a session, or the second step. */
export const ZSignInAnswer = z.union([ZSignInData, ZTwoFactorRequired]);
export type TSignInAnswer = z.infer<typeof ZSignInAnswer>;

/**
 * `GET /api/auth`: the start-up check (run again on every navigation); never 401. Signed in, it
 * may carry once `moved`: the member was removed from (or left) the account this session was in,
 * or its owner closed it, and the session now works in the account named by `account_id` /
 * `account_name`. Signed out, it may say why the session ended (`ended`): the member was removed
 * from (or left) their only account, or its owner closed it.
 */
export const ZAuthStatus = z.discriminatedUnion('authenticated', [
  ZUser.extend({
    authenticated: z.literal(true),
    moved: ZRemovalNotice.optional(),
  }),
  z.object({
    authenticated: z.literal(false),
    ended: ZRemovalNotice.optional(),
  }),
]);
export type TAuthStatus = z.infer<typeof ZAuthStatus>;

export const ZSwitchAccount = z.strictObject({ account: z.uuid() });

export const ZPasswordResetRequest = z.strictObject({ email: ZEmailAddress });

export const ZPasswordReset = z.strictObject({
  jwt: z.string().min(1).max(512),
  email: ZEmailAddress,
  password: ZStrongPassword,
});
export type TPasswordReset = z.infer<typeof ZPasswordReset>;
