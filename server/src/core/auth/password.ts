import { type Algorithm, hash, verify } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum, unusable as a value under verbatimModuleSyntax: Argon2id = 2
const ARGON2ID = 2 as Algorithm;

/** argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1): ~10 ms per hash here */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A corrupt stored hash is a failed sign-in, not a crash
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check for an email that has no account, so the answer time does not tell
 * whether the email exists
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('kestrel-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
