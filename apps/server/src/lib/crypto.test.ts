import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, randomBase62, randomToken, sha256 } from './crypto';

const SECRET = 'a-test-secret-that-is-long-enough-1234';

describe('crypto', () => {
  it('round-trips a sealed secret and never stores the plaintext', () => {
    const sealed = encryptSecret(SECRET, 'sk-upstream-key');
    expect(sealed).not.toContain('sk-upstream-key');
    expect(decryptSecret(SECRET, sealed)).toBe('sk-upstream-key');
    expect(encryptSecret(SECRET, 'x')).not.toBe(encryptSecret(SECRET, 'x'));
  });

  it('refuses a tampered ciphertext and a different secret', () => {
    const sealed = encryptSecret(SECRET, 'value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => decryptSecret(SECRET, parts.join('.'))).toThrow();
    expect(() => decryptSecret('another-secret-that-is-long-enough-99', sealed)).toThrow();
    expect(() => decryptSecret(SECRET, 'garbage')).toThrow();
  });

  it('makes base62 text of the asked length and distinct tokens', () => {
    const text = randomBase62(40);
    expect(text).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
