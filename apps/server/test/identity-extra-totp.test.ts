import { describe, expect, it } from 'vitest';
import {
  hashBackupCode,
  matchTotpStep,
  newBackupCode,
  newTotpSecret,
  qrCodeDataUrl,
  totpCode,
  totpStep,
  totpUri,
} from '../src/lib/totp';

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vector (6-digit truncation)', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T=59 s -> 94287082 (8 digits).
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
  });

  it('accepts the current, previous and next step, and nothing further or malformed', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(matchTotpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(matchTotpStep(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotpStep(secret, totpCode(secret, now - 90_000), now)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeNull();
    expect(matchTotpStep(secret, '1234567', now)).toBeNull();
  });

  it('builds an otpauth URI and a PNG data URL QR code', async () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = totpUri(secret, 'ana@example.com');
    expect(uri).toMatch(/^otpauth:\/\/totp\/AIR:ana%40example\.com\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('digits=6');
    expect(uri).toContain('period=30');
    const qr = await qrCodeDataUrl(uri);
    expect(qr).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(qr.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('makes distinct backup codes whose hash ignores case, spaces and dashes', () => {
    const code = newBackupCode();
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(newBackupCode()).not.toBe(code);
    expect(hashBackupCode(code.toLowerCase().replace(/-/g, ' '))).toBe(hashBackupCode(code));
    expect(hashBackupCode(newBackupCode())).not.toBe(hashBackupCode(code));
  });
});
