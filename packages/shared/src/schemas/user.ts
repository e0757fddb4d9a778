import { z } from 'zod';
import { ZRole } from './roles';
import { isComplexPassword, missingError, PASSWORD_MIN_LENGTH } from '../validation';
import { ZEmailAddress } from './fields';
import { ZLocale } from './common';
import { ZKeyIdentity } from './api-key';

/**
 * A new password (sign-up, reset, change): at least 8 characters and complex. The messages are
 * server catalog keys, so the answer is localised ("Password must contain at least one special
 * character" in English).
 */
export const ZStrongPassword = z
  .string({ error: missingError('validation.password_required') })
  .min(1, { error: 'validation.password_required' })
  .min(PASSWORD_MIN_LENGTH, { error: 'validation.password_min_length' })
  .max(200)
  .refine(isComplexPassword, { error: 'validation.password_complex' });

/** The account picker entry carried on the User. */
export const ZAccountRef = z.object({ id: z.uuid(), name: z.string() });
export type TAccountRef = z.infer<typeof ZAccountRef>;

/** `GET /api/user/permissions`: which roles the caller's role includes. */
export const ZPermissionMap = z.object({
  master: z.boolean(),
  owner: z.boolean(),
  admin: z.boolean(),
  developer: z.boolean(),
  user: z.boolean(),
});

/** The account's subscription as the console's guard and banners read it. */
export const ZUserSubscription = z.object({
  status: z.enum(['active', 'trialing', 'requires_payment_method', 'requires_action', 'canceled']),
  cancel_at_period_end: z.boolean(),
  seats: z.number().int(),
  seat_price: z.number().int(),
  currency_symbol: z.string(),
  interval: z.string(),
  current_period_start: z.string(),
  current_period_end: z.string(),
});
export type TUserSubscription = z.infer<typeof ZUserSubscription>;

/** The User entity (spec section 3), without the token (the sign-in answer adds it). */
export const ZUser = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  verified: z.boolean(),
  /** The role in the current account (the permission flag map is derived from it). */
  role: ZRole,
  permission: ZPermissionMap,
  has_password: z.boolean(),
  '2fa_enabled': z.boolean(),
  support_enabled: z.boolean(),
  accounts: z.array(ZAccountRef),
  default_account: z.uuid().nullable(),
  account_id: z.uuid(),
  account_name: z.string(),
  locale: ZLocale,
  dark_mode: z.boolean(),
  /** The current account's plan id, or null before one is chosen. */
  plan: z.string().nullable(),
  subscription: ZUserSubscription.nullable(),
  onboarded: z.boolean(),
  duplicate_user: z.boolean(),
  last_login: z.string().nullable(),
  date_created: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

/** `GET /api/user`: the signed-in user, or for an `account.read` API key the key and its account. */
export const ZUserOrKey = z.union([ZUser, ZKeyIdentity]);
export type TUserOrKey = z.infer<typeof ZUserOrKey>;

/** The sign-in answer's `data`: a session token plus the user. */
export const ZSignInData = ZUser.extend({ token: z.string() });
export type TSignInData = z.infer<typeof ZSignInData>;

/** A person's name, required (sign-up, invited sign-up; optional where the profile changes it). */
export const ZName = z
  .string({ error: missingError('validation.name_required') })
  .trim()
  .min(1, { error: 'validation.name_required' })
  .max(100);
/** An email address, required, with the spec's messages. */
export const ZEmail = z
  .string({ error: missingError('validation.email_required') })
  .trim()
  .min(1, { error: 'validation.email_required' })
  .pipe(ZEmailAddress);

/**
 * Invited sign-up: `POST /api/user`. `invite_id` carries the invite link's token (the spec's field
 * name; the invite's row id is never accepted). A new address needs name and a strong password; an
 * address that already has a user confirms with its current password, or is already signed in as
 * that user. `confirm_password` is the hidden bot trap (must stay empty).
 */
export const ZInvitedSignUp = z.strictObject({
  name: ZName.optional(),
  email: ZEmail,
  password: z.string().max(200).optional(),
  confirm_password: z.string().max(200).optional(),
  invite_id: z.string().min(16).max(128),
});
export type TInvitedSignUp = z.infer<typeof ZInvitedSignUp>;

/**
 * The invite form for a new address: what the service requires of one (a name and a strong
 * password). The console validates with it; the route accepts the wider ZInvitedSignUp and the
 * service parses a new address's body with this one (a missing name reads as the empty one).
 */
export const ZInvitedSignUpNew = ZInvitedSignUp.extend({ name: ZName, password: ZStrongPassword });

/** The invite form for an existing address, not signed in as it: its current password confirms. */
export const ZInvitedSignUpExisting = ZInvitedSignUp.extend({
  password: z.string().min(1, { error: 'validation.old_password_required' }).max(200),
});

/**
 * `PATCH /api/user`: the profile form, or a single flag (onboarded, dark_mode, locale). Every
 * field optional; the service applies only what was sent.
 */
export const ZUserUpdate = z.strictObject({
  name: ZName.optional(),
  email: ZEmail.optional(),
  account_name: z.string().trim().min(1).max(100).optional(),
  default_account: z.uuid().optional(),
  support_enabled: z.boolean().optional(),
  onboarded: z.literal(true).optional(),
  dark_mode: z.boolean().optional(),
  locale: ZLocale.optional(),
  avatar: z.string().max(2048).nullable().optional(),
  /**
   * Confirms an email change: the current password, or (for a user without one) a current TOTP
   * code. The new address becomes active only when its verification link is followed.
   */
  password: z.string().max(200).optional(),
  code: z.string().trim().max(32).optional(),
});
export type TUserUpdate = z.infer<typeof ZUserUpdate>;

/** `PUT /api/user/password`. The old password is needed only when the user already has one. */
export const ZPasswordChange = z
  .strictObject({
    oldpassword: z.string().max(200).optional(),
    has_password: z.boolean().optional(),
    newpassword: ZStrongPassword,
  })
  // The form says it has a password (the spec's has_password): then the old one is required. The
  // server checks the stored hash too, whatever the flag says.
  .superRefine((body, ctx) => {
    if (body.has_password === true && !body.oldpassword) {
      ctx.addIssue({ code: 'custom', path: ['oldpassword'], message: 'validation.old_password_required' });
    }
  });
export type TPasswordChange = z.infer<typeof ZPasswordChange>;

export const ZVerifyEmail = z.strictObject({ token: z.string().min(1).max(512) });

/** `POST /api/user/verify`: the user when the link opens in the signed-in browser, else just the flag. */
export const ZVerifyAnswer = z.union([ZUser, z.object({ verified: z.literal(true) })]);
export type TVerifyAnswer = z.infer<typeof ZVerifyAnswer>;

/** `DELETE /api/user` and `DELETE /api/account`: the password confirms. */
export const ZPasswordConfirm = z.strictObject({
  password: z
    .string({ error: missingError('validation.close_account_password') })
    .min(1, { error: 'validation.close_account_password' })
    .max(200),
});
export type TPasswordConfirm = z.infer<typeof ZPasswordConfirm>;
