import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../../lib/http-error';
import { cpuPool } from '../../../workers/cpu-pool';
import type { DocumentsCpuTasks } from '../documents.cpu';
import {
  findOwnedFile,
  getFileText,
  type FilesDeps,
  isReadAgainInBackground,
  whileFileExists,
} from '../../files';
import { FileClaims } from './file-claims';
import { knowledgeRepo } from './knowledge.repo';
import { searchClaimsRepo } from './search-claims.repo';
import { mergeIndexStep } from './segment-merge';
import { INDEX_VERSION } from './terms';

/**
 * Keeps the search index in step with the files: a file is indexed as soon as it is uploaded
 * (add), and a sweep finds every file not indexed yet (files from before the upgrade, a file
 * indexed by an older INDEX_VERSION, terms.ts: a newer reader or new terms; an index cut short
 * by a restart or an OCR read still running).
 * Two files in flight, their text read by the reader's workers (OCR for scans) and their terms
 * computed in the CPU pool, so the event loop only writes the rows: while one file's rows are
 * written, the next one's text is read and its terms computed (one file at a time left a core
 * idle during each write: bench/REPORT.md, ask-files, indexing rate). Only one file is read and
 * one file's terms computed at a time, so each pool keeps a worker for people (a preview, a
 * summary's parts) however many files wait. Rename changes nothing (the name is joined
 * at question time); delete, delete all and account deletion remove the rows by cascade.
 * App servers sharing PostgreSQL each run an indexer: a file is indexed by the one that claims
 * it (file-claims.ts), and not again once done.
 */
const SWEEP_MS = 15_000;
const SWEEP_BATCH = 100;
/** Files indexed at once: one's terms computed while the other's rows are written. */
const IN_FLIGHT = 2;

export const NO_TEXT = 'No text could be read from this file.';
/** A read cut short before any text (a long scan, even with the background read's time). */
export const NO_TEXT_IN_TIME = 'No text could be read from this file in the time a read may take.';

/** The file was deleted meanwhile: its read or terms stopped (404), or its rows refused. */
const isGone = (err: unknown) => {
  if (err instanceof HttpError) return err.statusCode === 404;
  const code = (err as { code?: string })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

export class SearchIndexer {
  private readonly queue = new Map<number, number>();
  /** When each owner's file was last taken (a count of files taken), for their turns. */
  private readonly served = new Map<number, number>();
  private turns = 0;
  /** The files being indexed now. */
  private readonly current = new Set<number>();
  /** The lanes working through the queue, at most IN_FLIGHT. */
  private readonly lanes = new Set<Promise<void>>();
  /** One text read at a time (the reader's workers), and one terms computation (the CPU pool). */
  private readonly reading = new OneAtATime();
  private readonly computing = new OneAtATime();
  /** For each sweep reading the pending files: the files finished meanwhile. */
  private readonly sweeps = new Set<Set<number>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The index's segments being merged, while no file waits (mergeWhenIdle). */
  private merging: Promise<void> | undefined;
  /** This indexer's claims on the files it indexes, against other app servers'. */
  private readonly claims: FileClaims;
  /** Files indexed by this process, for the bench and the Admin page. */
  indexed = 0;

  constructor(
    private readonly deps: FilesDeps,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    /** Told of each file made searchable (its vectors come next, vector-indexer.ts). */
    private readonly onIndexed: () => void = () => {},
  ) {
    this.claims = new FileClaims(deps.db, deps.dialect, 'terms');
  }

  /** A new file: indexed next (before the sweep's older ones). */
  add(fileId: number, userId: number): void {
    if (this.stopped) return;
    const rest = [...this.queue];
    this.queue.clear();
    this.queue.set(fileId, userId);
    for (const [f, u] of rest) this.queue.set(f, u);
    this.pump();
  }

  start(): void {
    const sweep = async () => {
      try {
        await this.sweep();
      } catch (err) {
        this.log.error({ err }, 'search index: the sweep failed');
      }
      if (!this.stopped) this.timer = setTimeout(() => void sweep(), SWEEP_MS).unref();
    };
    void sweep();
  }

  /** Resolves when no file is queued or being indexed (tests). */
  async idle(): Promise<void> {
    while (this.lanes.size) await Promise.all(this.lanes);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.queue.clear();
    await Promise.all(this.lanes);
    await this.merging;
  }

  /**
   * Queues the files waiting for the index (the sweep, or a test that wants it now). A file
   * indexed while the query ran was pending when it read the rows: it is not queued again (a
   * second index would throw away the vectors just computed for the first).
   */
  async sweep(): Promise<void> {
    const finished = new Set<number>();
    this.sweeps.add(finished);
    let rows;
    try {
      rows = await knowledgeRepo.pending(this.deps.db, INDEX_VERSION, SWEEP_BATCH);
    } finally {
      this.sweeps.delete(finished);
    }
    for (const r of rows)
      if (!this.current.has(r.id) && !this.queue.has(r.id) && !finished.has(r.id))
        this.queue.set(r.id, r.user_id);
    this.pump();
  }

  /**
   * Starts lanes while files wait, up to IN_FLIGHT. A lane takes its first file at once, so a
   * file queued while one lane is busy gets the second lane (it waited for the busy one before).
   */
  private pump(): void {
    while (!this.stopped && this.lanes.size < IN_FLIGHT && this.queue.size > 0) {
      const lane: Promise<void> = this.lane().finally(() => {
        this.lanes.delete(lane);
        this.pump(); // a file queued as the lane ended
        if (this.lanes.size === 0) {
          this.served.clear(); // nobody waits: no turn is owed
          this.mergeWhenIdle();
        }
      });
      this.lanes.add(lane);
    }
  }

  /**
   * Once no file waits, the index's segments are merged a step at a time (mergeIndexStep,
   * a few ms each) until there is nothing to merge or a file comes: merged while indexing, they
   * cost every upload of a folder; left unmerged, every question reads more of them.
   */
  private mergeWhenIdle(): void {
    if (this.merging || this.stopped) return;
    const idle = () => !this.stopped && this.queue.size === 0 && this.lanes.size === 0;
    this.merging = (async () => {
      try {
        while (idle() && (await mergeIndexStep(this.deps.db, this.deps.dialect)))
          await new Promise((resolve) => setImmediate(resolve));
      } catch (err) {
        this.log.warn({ err }, 'search index: merging its segments failed');
      } finally {
        this.merging = undefined;
      }
    })();
  }

  /**
   * The next file: of the owner served least recently (then the one nearest the front), their
   * newest first. Newest first alone let one account's stream of uploads keep every other
   * account's file waiting behind it; now each owner's turn comes after one file of each other.
   */
  private takeNext(): [number, number] {
    let next: [number, number] | undefined;
    let nextServed = Infinity;
    for (const [fileId, userId] of this.queue) {
      const served = this.served.get(userId) ?? 0;
      if (served < nextServed) [next, nextServed] = [[fileId, userId], served];
      if (served === 0) break;
    }
    this.queue.delete(next![0]);
    this.served.set(next![1], ++this.turns);
    return next!;
  }

  private async lane(): Promise<void> {
    while (!this.stopped && this.queue.size) {
      const [fileId, userId] = this.takeNext();
      this.current.add(fileId);
      try {
        await this.index(fileId, userId);
      } catch (err) {
        // Left 'reading': the next sweep tries again.
        if (!isGone(err)) this.log.warn({ err, fileId }, 'search index: a file failed');
      } finally {
        this.current.delete(fileId);
        for (const finished of this.sweeps) finished.add(fileId);
      }
    }
  }

  private async index(fileId: number, userId: number): Promise<void> {
    const { db } = this.deps;
    // Its read was cut short and it is read again in the background (up to 10 minutes): left
    // pending, and indexed from that text by the first sweep after it. Read here meanwhile, a
    // scan was read again in full (OCR, to the 20 s limit) on every sweep, and thrown away.
    if (isReadAgainInBackground(db, fileId)) return;
    // Claimed by another app server: left to it (if it fails, the file is pending for the next
    // sweep). Queued here before another server indexed it: not read again.
    await this.claims.whileHeld(fileId, async () => {
      if (await searchClaimsRepo.needsTerms(db, fileId, INDEX_VERSION))
        await this.indexClaimed(fileId, userId);
    });
  }

  private async indexClaimed(fileId: number, userId: number): Promise<void> {
    const { db, dialect } = this.deps;
    await knowledgeRepo.markReading(db, dialect, fileId, userId);
    let text;
    try {
      text = await this.reading.run(() =>
        // Checked again once its turn comes: a preview may have started that read meanwhile.
        isReadAgainInBackground(db, fileId)
          ? Promise.resolve(undefined)
          : getFileText(this.deps, userId, fileId),
      );
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400)
        return knowledgeRepo.markUnreadable(
          db,
          dialect,
          fileId,
          userId,
          err.message,
          INDEX_VERSION,
        );
      throw err;
    }
    // Cut short by the reader's time limit (a scan under load), or another read of it under way
    // in the background: indexed by a later sweep from that read's text (files.service.ts caches
    // it, whole or, cut short by its own limit too, what it read).
    if (!text || text.timedOut) return;
    if (!text.text.trim()) {
      const why = text.truncated ? NO_TEXT_IN_TIME : NO_TEXT;
      return knowledgeRepo.markUnreadable(db, dialect, fileId, userId, why, INDEX_VERSION);
    }
    // A file deleted after its read: its terms are not computed (nor finished, if under way).
    const built = await whileFileExists(db, fileId, (signal) =>
      this.computing.run(async () => {
        await findOwnedFile(this.deps, userId, fileId); // deleted while it waited its turn
        signal.throwIfAborted();
        return cpuPool<DocumentsCpuTasks>().run(
          'searchPassages',
          { units: text.units, text: text.text },
          { signal },
        );
      }),
    );
    if (this.stopped) return;
    await knowledgeRepo.replace(db, dialect, fileId, userId, built, INDEX_VERSION);
    this.indexed++;
    this.onIndexed();
  }
}

/** Runs tasks one after another, each after the one asked before it has settled. */
class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.last.then(task, task);
    this.last = run.catch(() => undefined);
    return run;
  }
}
