import { z } from 'zod';
import { ZRole } from '../permissions';
import { isComplexPassword, PASSWORD_MIN_LENGTH, ZEmailAddress } from '../validation';
import { ZLocale } from './common';

/**
 * A new password (sign-up, reset, change): at least 8 characters and complex. The messages are
 * server catalog keys, so the answer is localised ("Password must contain at least one special
 * character" in English).
 */
export const ZStrongPassword = z
  .string({ error: 'validation.password_required' })
  .min(PASSWORD_MIN_LENGTH, { error: 'validation.password_min_length' })
  .max(200)
  .refine(isComplexPassword, { error: 'validation.password_complex' });

/** The account picker entry carried on the User. */
export const ZAccountRef = z.object({ id: z.uuid(), name: z.string() });
export type TAccountRef = z.infer<typeof ZAccountRef>;

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

/** The sign-in answer's `data`: a session token plus the user. */
export const ZSignInData = ZUser.extend({ token: z.string() });
export type TSignInData = z.infer<typeof ZSignInData>;

const ZName = z.string().trim().min(1, { error: 'validation.name_required' }).max(100);
const ZEmail = z
  .string({ error: 'validation.email_required' })
  .trim()
  .min(1, { error: 'validation.email_required' })
  .pipe(ZEmailAddress);

/** Invited sign-up: `POST /api/user`. `confirm_password` is the hidden bot trap (must stay empty). */
export const ZInvitedSignUp = z.strictObject({
  name: ZName,
  email: ZEmail,
  password: ZStrongPassword,
  confirm_password: z.string().max(200).optional(),
  invite_id: z.uuid(),
});
export type TInvitedSignUp = z.infer<typeof ZInvitedSignUp>;

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
});
export type TUserUpdate = z.infer<typeof ZUserUpdate>;

/** `PUT /api/user/password`. The old password is needed only when the user already has one. */
export const ZPasswordChange = z.strictObject({
  oldpassword: z.string().max(200).optional(),
  has_password: z.boolean().optional(),
  newpassword: ZStrongPassword,
});
export type TPasswordChange = z.infer<typeof ZPasswordChange>;

export const ZVerifyEmail = z.strictObject({ token: z.string().min(1).max(512) });

/** `DELETE /api/user` and `DELETE /api/account`: the password confirms. */
export const ZPasswordConfirm = z.strictObject({
  password: z
    .string({ error: 'validation.close_account_password' })
    .min(1, { error: 'validation.close_account_password' })
    .max(200),
});
export type TPasswordConfirm = z.infer<typeof ZPasswordConfirm>;
