import { z } from 'zod';
import { ZOtpCode } from './fields';

/**
 * Two-factor authentication (TOTP). `PUT /api/user/2fa` turns it on (answering a QR code and the
 * secret to confirm with a first code) or off; `POST /api/user/2fa/verify` confirms the first code
 * and answers the one backup code, shown once. `POST /api/auth/otp` finishes a sign-in that
 * answered `2fa_required`, with a TOTP code or the backup code.
 */
export const ZTwoFactorToggle = z.strictObject({
  '2fa_enabled': z.boolean(),
  /**
   * Turning it off while it is on needs a current TOTP code or the backup code: a stolen session
   * alone cannot remove the second factor.
   */
  code: z.string().trim().max(32, { error: 'validation.code_invalid' }).optional(),
});
export type TTwoFactorToggle = z.infer<typeof ZTwoFactorToggle>;

/** The console's turn-off form: what the service requires then (a code, `validation.code_required`). */
export const ZTwoFactorOff = ZTwoFactorToggle.extend({
  code: z
    .string()
    .trim()
    .min(1, { error: 'validation.code_required' })
    .max(32, { error: 'validation.code_invalid' }),
});

export const ZTwoFactorSetup = z.object({
  '2fa_enabled': z.boolean(),
  /** `data:image/png;base64,...` of the otpauth URI; only when turning on. */
  qr_code: z.string().optional(),
  /** The base32 secret, for typing into an authenticator app by hand; only when turning on. */
  secret: z.string().optional(),
});
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;

export const ZTwoFactorVerify = z.strictObject({ code: ZOtpCode });
export type TTwoFactorVerify = z.infer<typeof ZTwoFactorVerify>;

export const ZTwoFactorVerified = z.object({ backup_code: z.string() });
export type TTwoFactorVerified = z.infer<typeof ZTwoFactorVerified>;

/** Longest accepted code: a backup code with separators typed as shown (`ABCD-EFGH-JKMN-PQRS`). */
export const BACKUP_CODE_MAX_LENGTH = 32;

export const ZOtpSignIn = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1, { error: 'validation.code_required' })
    .max(BACKUP_CODE_MAX_LENGTH, { error: 'validation.code_invalid' }),
  /** The pending-2FA token from the `2fa_required` answer. */
  jwt: z.string().min(1).max(512),
});
export type TOtpSignIn = z.infer<typeof ZOtpSignIn>;

/** The sign-in form's code mode: an authenticator code is exactly OTP_LENGTH characters. */
export const ZOtpSignInCode = ZOtpSignIn.extend({ code: ZOtpCode });
