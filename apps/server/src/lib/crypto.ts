import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Hex SHA-256: look-up hashes of API keys and one-time tokens (high-entropy inputs, so no salt).
 * Node's one-shot `hash` (no Hash object per call): every gateway call hashes its key.
 */
export function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/** A URL-safe random token (one-time links, session ids). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 text (rejection sampling, so no character is likelier than another). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const keyCache = new Map<string, Buffer>();

/** A 256-bit key per purpose, derived from SECRET, so one secret never keys two uses. */
export function deriveKey(secret: string, purpose: string): Buffer {
  const id = `${purpose}\0${secret}`;
  let key = keyCache.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'air', purpose, 32));
    keyCache.set(id, key);
  }
  return key;
}

/** AES-256-GCM; the result is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(secret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, 'encrypt'), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Inverse of encryptSecret; throws when the text was tampered with or the secret differs. */
export function decryptSecret(secret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unrecognised sealed secret');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    deriveKey(secret, 'encrypt'),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
