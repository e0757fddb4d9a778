import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashing (server contract section 3): argon2id with the library's recommended costs
 * (19 MiB, 2 passes); argon2id is the library's default algorithm (its const enum cannot be
 * imported under verbatimModuleSyntax, and a test checks the `$argon2id$` prefix). The PHC string carries its own salt and parameters, so costs can be raised
 * later without breaking stored hashes.
 */
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches `passwordHash`; a malformed or empty hash never matches. */
export async function verifyPassword(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified against when the user does not exist so that an unknown
 * email costs the same time as a wrong password (no user enumeration through timing).
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}-${Date.now()}`);
  return decoyHash;
}
