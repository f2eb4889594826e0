import argon2 from 'argon2';

/** Argon2id with the library's defaults (OWASP-grade: 64 MiB, 3 passes). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

// Verifying against this when no user matches keeps login time the same for unknown emails.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
