import { randomUUID } from 'node:crypto';
import type { Db, Dialect } from '../../../db/database';
import { searchClaimsRepo, type ClaimKind } from './search-claims.repo';

/**
 * A claim lasts a minute past its last renewal: renewed every quarter of it while the work runs
 * (a file's read, up to 20 s, waits behind another's; its vectors wait for the model's turns),
 * so a server that dies holds its files for a minute at most.
 */
export const CLAIM_LEASE_MS = 60_000;

/**
 * One indexer's claims on files, so that of several app servers sharing PostgreSQL each file's
 * work is done by one at a time: before, every server read, computed and wrote the same files
 * after an upgrade or a folder's upload, and each later write threw the earlier one's vectors
 * away. On SQLite there is one process, and a claim would only cost a commit per file.
 */
export class FileClaims {
  /** This indexer, in its claims' rows. */
  readonly holder = randomUUID();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly kind: ClaimKind,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {}

  /**
   * Runs `work` holding the file's claim (renewed while it runs, released after it): false,
   * without running it, when another indexer holds it.
   */
  async whileHeld(fileId: number, work: () => Promise<void>): Promise<boolean> {
    if (this.dialect === 'sqlite') {
      await work();
      return true;
    }
    const { db, dialect, kind, holder, leaseMs } = this;
    const claim = () =>
      searchClaimsRepo.claim(db, dialect, { fileId, kind, holder, now: new Date(), leaseMs });
    if (!(await claim())) return false;
    // A failed renewal is tried again at the next; the claim is lost only a lease later.
    let renewing: Promise<unknown> = Promise.resolve();
    const renewal = setInterval(() => (renewing = claim().catch(() => false)), leaseMs / 4);
    renewal.unref();
    try {
      await work();
    } finally {
      clearInterval(renewal);
      await renewing; // a renewal landing after the release would claim the file again
      // Not released (the database down a moment), it expires.
      await searchClaimsRepo.release(db, dialect, fileId, kind, holder).catch(() => {});
    }
    return true;
  }
}
