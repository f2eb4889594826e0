import type { ProgressEvent } from '@inkwell/contract';
import type { WorkHandle } from './language-model';

/**
 * The progress of one long piece of AI work (a document action, a page analysis): its stage,
 * parts done of parts in all, where its next model call stands in the scheduler's queue, and an
 * estimate of the time left. Services move it forward; the scheduler tells it its queue position;
 * whoever shows it (an SSE stream, a job row) listens with onChange.
 *
 * The time left is the measured pace of this work's own finished parts (which already accounts
 * for the model being shared), plus the wait of its next call while nothing is finished yet.
 */
export interface WorkEstimates {
  /** Estimated milliseconds of one call of this work, when the model's speed has been measured. */
  callMs(): number | null;
  /** Calls the model runs at once. */
  capacity: number;
}

export class WorkProgress implements WorkHandle {
  private stageName = 'starting';
  private done = 0;
  private total = 0;
  private queuedAhead = 0;
  private waitMs: number | null = null;
  private firstPartStartedAt: number | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly estimates?: WorkEstimates,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new stage, with the parts left from here on when they are known. */
  stage(name: string, partsLeft?: number) {
    this.stageName = name;
    if (partsLeft !== undefined) this.total = this.done + partsLeft;
    this.firstPartStartedAt ??= this.now();
    this.changed();
  }

  /** More parts than planned (e.g. one more round of combining). */
  addParts(n: number) {
    this.total += n;
    this.changed();
  }

  partDone() {
    this.done += 1;
    if (this.done > this.total) this.total = this.done;
    this.changed();
  }

  setQueuedAhead(calls: number, waitMs: number | null) {
    if (calls === this.queuedAhead && waitMs === this.waitMs) return;
    const moved = calls !== this.queuedAhead;
    this.queuedAhead = calls;
    this.waitMs = waitMs;
    // A new wait estimate alone is not worth an event; the next one carries it.
    if (moved) this.changed();
  }

  snapshot(): ProgressEvent {
    return {
      stage: this.stageName,
      done: this.done,
      total: this.total,
      queued_ahead: this.queuedAhead,
      eta_s: this.etaSeconds(),
    };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private etaSeconds(): number | null {
    const left = this.total - this.done;
    if (left <= 0) return 0;
    if (this.done > 0 && this.firstPartStartedAt !== null) {
      // The pace already holds the waits between this work's calls.
      const pace = (this.now() - this.firstPartStartedAt) / this.done;
      return Math.round((pace * left) / 1000);
    }
    const wait = this.queuedAhead > 0 ? (this.waitMs ?? 0) : 0;
    const call = this.estimates?.callMs() ?? null;
    if (call === null) return null;
    const capacity = Math.max(1, this.estimates?.capacity ?? 1);
    return Math.round((wait + (call * left) / capacity) / 1000);
  }

  private changed() {
    for (const l of this.listeners) l();
  }
}
