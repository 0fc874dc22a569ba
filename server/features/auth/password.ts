/**
 * Password hashing with argon2id at OWASP's minimum cost (m = 19 MiB, t = 2, p = 1), through the
 * maintained `argon2` binding. Unknown emails are checked against a dummy hash so both login
 * failures cost the same time.
 */
import argon2 from "argon2";

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** True when `password` matches `hash`; false (never throws) for a malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/** Spends the same work as a real verification, for an email that does not exist. Always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("copybridge-dummy-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
}
