import argon2 from 'argon2';
import pLimit from 'p-limit';
import { HttpError } from '../../lib/http-error';

/**
 * Argon2 runs on libuv's thread pool (4 threads), which file reads, DNS look-ups and zlib share,
 * and each call takes a core for tens of milliseconds: a burst of sign-ins from many addresses
 * would take every thread and both cores. So hashes and checks run at most HASH_CONCURRENCY at a
 * time, in the order asked, with at most HASH_WAITING waiting (bench/sign-in-burst.bench.ts
 * measured 1 against 2 and 4 on 2 cores: see bench/REPORT.md). One more is refused at once.
 */
export const HASH_CONCURRENCY = 1;
/** About a second and a half of waiting at ~50 ms a check: longer is better refused than queued. */
export const HASH_WAITING = 32;
export const PASSWORD_CHECKS_BUSY =
  'The server is busy checking other sign-ins. Please try again in a moment.';

const queue = pLimit(HASH_CONCURRENCY);

/** Runs `work` in turn, or refuses with a 503 (Retry-After 1 s) when the waiting line is full. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (queue.pendingCount >= HASH_WAITING) {
    return Promise.reject(new HttpError(503, PASSWORD_CHECKS_BUSY, { 'retry-after': '1' }));
  }
  return queue(work);
}

/** The cost of new hashes (a check uses the cost its hash was made with). */
export interface PasswordHashCost {
  memoryKib: number;
  passes: number;
}
/** The library's defaults, OWASP-grade: 64 MiB, 3 passes (PASSWORD_HASH_MEMORY_KIB, _PASSES). */
export const PRODUCTION_HASH_COST: PasswordHashCost = { memoryKib: 65536, passes: 3 };
let cost = PRODUCTION_HASH_COST;
// Verifying against this when no user matches keeps login time the same for unknown emails.
let dummyHash: Promise<string> | undefined;

/**
 * Sets the cost of new hashes, from the configuration at start-up. The test suite runs at a
 * small cost, as a hash at 64 MiB takes a core for a second on a loaded 2-core machine; one test
 * checks the production cost.
 */
export function configurePasswordHashing(next: PasswordHashCost) {
  if (next.memoryKib !== cost.memoryKib || next.passes !== cost.passes) dummyHash = undefined;
  cost = next;
}

const hashNow = (password: string) =>
  argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: cost.memoryKib,
    timeCost: cost.passes,
  });

/** Argon2id at the configured cost. */
export const hashPassword = (password: string) => inTurn(() => hashNow(password));

export function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  return inTurn(async () => {
    if (!hash) {
      // Made once, inside this turn: it counts as one of the checks running.
      dummyHash ??= hashNow('not-a-real-password');
      await argon2.verify(await dummyHash, password).catch(() => false);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}
