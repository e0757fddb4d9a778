import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256 } from './crypto';

/**
 * Time-based one-time passwords (RFC 6238): SHA-1, 6 digits, 30-second steps, accepting the
 * previous and next step for clock drift. Callers store the accepted step and refuse any step at or
 * below it, so a code is never accepted twice (see `acceptTotpStep` in the two-factor service).
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'AIR';

/** A new 160-bit secret (RFC 4226's recommended size) as base32 text. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
export function totpUri(secretBase32: string, accountLabel: string): string {
  return totpFor(secretBase32, accountLabel).toString();
}

/** A PNG QR code of `text` as a `data:image/png;base64,...` URL. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  // Loaded on first use (two-factor set-up), not at start.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/** The time step a timestamp falls in. */
export function totpStep(timestampMs = Date.now()): number {
  return Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code for a secret at a time (tests, and nothing else, need to compute one). */
export function totpCode(secretBase32: string, timestampMs = Date.now()): string {
  return totpFor(secretBase32).generate({ timestamp: timestampMs });
}

/**
 * The time step `code` belongs to (within ±1 step of now), or null when it matches none.
 * otpauth answers a delta where 0 means "now" (falsy!) and null means "no match".
 */
export function matchTotpStep(secretBase32: string, code: string, timestampMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: timestampMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return totpStep(timestampMs) + delta;
}

/** Backup codes avoid look-alike characters (no 0/O, 1/I/L) because people type them from paper. */
const BACKUP_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const BACKUP_LENGTH = 16;

/** A new backup code, 16 characters (~78 bits) in groups of four: `ABCD-EFGH-JKMN-PQRS`. */
export function newBackupCode(): string {
  let raw = '';
  while (raw.length < BACKUP_LENGTH) {
    for (const byte of randomBytes(BACKUP_LENGTH * 2)) {
      // 248 = 8 * 31: rejection sampling keeps every character equally likely.
      if (byte < 248 && raw.length < BACKUP_LENGTH) raw += BACKUP_ALPHABET[byte % BACKUP_ALPHABET.length];
    }
  }
  return raw.match(/.{4}/g)!.join('-');
}

/** Upper-cases and drops spaces and dashes, so `abcd efgh-...` matches `ABCD-EFGH-...`. */
export function normalizeBackupCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}

/** The stored form of a backup code: SHA-256 suffices for a random ~78-bit code behind a rate limit. */
export function hashBackupCode(code: string): string {
  return sha256(`backup:${normalizeBackupCode(code)}`);
}
