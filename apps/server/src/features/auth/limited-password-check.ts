import { tooManyRequests } from '../../lib/http-error';
import { rateLimitedMessage } from '../../lib/wait-text';
import type { SignInAttempt, SignInLimit } from '../../plugins/sign-in-limit';
import { verifyPassword } from './passwords';

/** Who checks their own password, signed in: the account and the client's address. */
export interface PasswordChecker {
  userId: number;
  ip: string;
}

/**
 * Checks a signed-in user's current password (email change, password change, account deletion)
 * under the sign-in limit, as /api/login does: else a stolen session could guess the password at
 * hash speed and take the account. Counted twice before the check: for the address (the same
 * counter as sign-ins from it) and for the account (so changing address gains a thief nothing);
 * both are given back unless the password was wrong. Over either limit, a 429 and no check.
 */
export async function verifyPasswordLimited(
  limit: SignInLimit,
  who: PasswordChecker,
  hash: string | undefined,
  password: string,
): Promise<boolean> {
  const byAddress = await limit.attempt(who.ip);
  refuseIfSpent(byAddress);
  const byAccount = await limit.attempt(`user:${who.userId}`);
  if (!byAccount.allowed) await byAddress.refund();
  refuseIfSpent(byAccount);
  // Given back unless the password was judged wrong (a check that threw judged nothing).
  let right = true;
  try {
    right = await verifyPassword(hash, password);
    return right;
  } finally {
    if (right) await Promise.all([byAddress.refund(), byAccount.refund()]);
  }
}

/** A 429 (with its wait) when the sign-in limit refused this attempt. */
export function refuseIfSpent(attempt: SignInAttempt): asserts attempt is SignInAttempt & {
  allowed: true;
} {
  if (!attempt.allowed) {
    throw tooManyRequests(rateLimitedMessage(attempt.retryAfter), attempt.retryAfter);
  }
}
