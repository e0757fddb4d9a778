import type { TTwoFactorSetup } from '@air/shared/schemas/two-factor';
import './messages';
import { AppError } from '../../lib/app-error';
import { attemptKey } from '../../lib/attempt-limiter';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import {
  hashBackupCode,
  matchTotpStep,
  newBackupCode,
  newTotpSecret,
  qrCodeDataUrl,
  totpUri,
} from '../../lib/totp';
import {
  acceptTotpStep,
  activatePendingTotp,
  clearTwoFactor,
  setPendingTotpSecret,
  useBackupCode,
  userRecord,
} from '../identity/service';
import type { TServices, TCaller } from '../../core/services';

/**
 * Two-factor authentication (server contract section 3). Turning it on stores a pending secret
 * (encrypted with SECRET) and answers its QR code; the first correct code makes it the active
 * secret and answers one backup code, kept only as a hash. Every accepted TOTP step is stored and
 * a step at or below it is refused, so a code works once even within its 90-second window.
 */

async function userRow(app: TServices, userId: string) {
  const user = await userRecord(app.db, userId);
  if (!user) throw new AppError('unauthenticated');
  return user;
}

export async function startTwoFactorSetup(app: TServices, userId: string): Promise<TTwoFactorSetup> {
  const user = await userRow(app, userId);
  const secret = newTotpSecret();
  await setPendingTotpSecret(app.db, userId, encryptSecret(app.config.secret, secret));
  return {
    // Stays false until a first code confirms the app holds the secret (or true if already on:
    // the current secret keeps working until the new one is confirmed).
    '2fa_enabled': user.totpEnabled,
    qr_code: await qrCodeDataUrl(totpUri(secret, user.email)),
    secret,
  };
}

/**
 * Turns two-factor off. When it is on, a current TOTP code or the backup code is needed (used up,
 * counted against the sign-in limits); a set-up still pending is simply dropped.
 */
export async function disableTwoFactor(
  app: TServices,
  request: TCaller,
  userId: string,
  code: string | undefined,
): Promise<void> {
  const user = await userRow(app, userId);
  if (user.totpEnabled) {
    if (!code)
      throw new AppError('validation', { messageKey: 'validation.code_required', inputError: 'code' });
    const keys = [attemptKey('email', user.email), attemptKey('ip', request.ip)];
    await app.attempts.reserve(keys);
    if (!(await useSignInCode(app, userId, code)))
      throw new AppError('validation', { messageKey: 'error.otp_invalid', inputError: 'code' });
    await app.attempts.release(keys);
  }
  await clearTwoFactor(app.db, userId);
}

/** Confirms the pending secret with its first code; answers the backup code (shown once). */
export async function confirmTwoFactor(app: TServices, userId: string, code: string): Promise<string> {
  const user = await userRow(app, userId);
  if (!user.totpPendingSecretEnc) {
    throw new AppError('bad_request', { messageKey: 'error.two_factor_not_pending', inputError: 'code' });
  }
  const secret = decryptSecret(app.config.secret, user.totpPendingSecretEnc);
  const step = matchTotpStep(secret, code);
  if (step === null)
    throw new AppError('bad_request', { messageKey: 'error.otp_invalid', inputError: 'code' });
  const backupCode = newBackupCode();
  // Conditional on the same pending secret: a concurrent re-setup makes this code stale.
  const activated = await activatePendingTotp(app.db, userId, {
    pendingSecretEnc: user.totpPendingSecretEnc,
    step,
    backupCodeHash: hashBackupCode(backupCode),
  });
  if (!activated)
    throw new AppError('bad_request', { messageKey: 'error.two_factor_not_pending', inputError: 'code' });
  return backupCode;
}

/**
 * Checks a sign-in code of a user with two-factor on and uses it up: a TOTP code (its step must
 * be newer than the last accepted one) or the backup code (cleared; two-factor stays on).
 * Answers false for a wrong or already-used code. Each use is one conditional UPDATE, so two
 * concurrent requests with the same code cannot both pass.
 */
export async function useSignInCode(app: TServices, userId: string, code: string): Promise<boolean> {
  const user = await userRow(app, userId);
  if (!user.totpEnabled || !user.totpSecretEnc) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const step = matchTotpStep(decryptSecret(app.config.secret, user.totpSecretEnc), trimmed);
    if (step === null) return false;
    return acceptTotpStep(app.db, userId, step);
  }
  if (!user.backupCodeHash) return false;
  return useBackupCode(app.db, userId, hashBackupCode(trimmed));
}
