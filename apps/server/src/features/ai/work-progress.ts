import type { ProgressEvent } from '@inkwell/contract';
import type { WorkHandle } from './language-model';

/**
 * The progress of one long piece of AI work (a document action, a page analysis): its stage,
 * parts done of parts in all, where its next model call stands in the scheduler's queue, and an
 * estimate of the time left. Services move it forward; the scheduler tells it its queue position
 * and the model tells it when its calls start and end; whoever shows it (an SSE stream, a job row)
 * listens with onChange.
 *
 * The time left comes from what was measured: each call's estimate from the model's measured
 * speed for a call of that size, corrected by how long this work's own calls really ran against
 * their estimates, plus the wall-clock pace between parts (which holds the turns other people's
 * calls take in between), plus the wait in the queue. The figure shown counts down with the clock
 * and moves most of the way towards each lower estimate at once; it only goes up by as much as the
 * queue in front of the work grew, or to what the work's remaining calls must take at the least.
 */
export interface WorkEstimates {
  /** Estimated milliseconds of one call, when the model's speed has been measured. */
  callMs(): number | null;
  /** Calls the model runs at once. */
  capacity: number;
}

/** How far a lower estimate moves the figure at once (good news need not wait long). */
const SMOOTHING = 0.8;

export class WorkProgress implements WorkHandle {
  private stageName = 'starting';
  private done = 0;
  private total = 0;
  private queuedAhead = 0;
  private waitMs: number | null = null;
  /** Calls of this work running now: when each started and its estimate. */
  private readonly runningCalls: { startedAt: number; estimateMs: number }[] = [];
  private mostParallel = 1;
  private lastEstimateMs: number | null = null;
  /** Sum of real run time over sum of estimates, of this work's finished calls. */
  private ranMs = 0;
  private estimatedMs = 0;
  private startedAt: number | null = null;
  private firstCallAt: number | null = null;
  private lastDoneAt: number | null = null;
  private shown: { ms: number; at: number; waitMs: number; total: number } | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly estimates?: WorkEstimates,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new stage, with the parts left from here on when they are known. */
  stage(name: string, partsLeft?: number) {
    this.stageName = name;
    this.startedAt ??= this.now();
    if (partsLeft !== undefined) this.total = this.done + partsLeft;
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
    this.lastDoneAt = this.now();
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

  callStarted(estimateMs: number) {
    const at = this.now();
    this.firstCallAt ??= at;
    this.lastEstimateMs = estimateMs;
    this.runningCalls.push({ startedAt: at, estimateMs });
    this.mostParallel = Math.max(this.mostParallel, this.runningCalls.length);
    this.changed();
  }

  callEnded(ranMs: number) {
    const call = this.runningCalls.shift();
    if (!call) return;
    this.ranMs += ranMs;
    this.estimatedMs += call.estimateMs;
  }

  snapshot(): ProgressEvent {
    const waiting = this.runningCalls.length === 0 && this.queuedAhead > 0;
    return {
      stage: this.stageName,
      done: this.done,
      total: this.total,
      queued_ahead: this.queuedAhead,
      eta_s: this.shownSeconds(),
      running: this.runningCalls.length,
      queue_wait_s: waiting && this.waitMs !== null ? Math.round(this.waitMs / 1000) : null,
    };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How much longer this work's calls run than the model's estimates said (1 before any ended). */
  private calibration(): number {
    return this.estimatedMs > 0 ? this.ranMs / this.estimatedMs : 1;
  }

  /** Milliseconds one more part of this work takes, or null before anything is known. */
  private perPartMs(): { model: number; wall: number } | null {
    // Between parts, other people's calls may take their turns: the wall-clock pace shows it.
    // Parts that are no model call (a page audit) have only this pace.
    const since = this.firstCallAt ?? this.startedAt;
    const wallPace =
      this.done > 0 && since !== null && this.lastDoneAt !== null
        ? (this.lastDoneAt - since) / this.done
        : null;
    const base = this.lastEstimateMs ?? (wallPace === null ? this.estimates?.callMs() : null);
    const model = base != null ? base * this.calibration() : wallPace;
    if (model === null) return null;
    return { model, wall: wallPace === null ? model : Math.max(model, wallPace) };
  }

  /** The estimate from what is known now, and the least the remaining calls must take. */
  private rawMs(): { estimate: number; least: number; part: number } | null {
    const left = this.total - this.done;
    if (this.total === 0) return null; // the parts are not known yet
    if (left <= 0) return { estimate: 0, least: 0, part: 0 };
    const part = this.perPartMs();
    if (part === null) return null;
    const now = this.now();
    const calib = this.calibration();
    const running = this.runningCalls.map((c) =>
      Math.max(0, c.estimateMs * calib - (now - c.startedAt)),
    );
    const runningLeft = running.length ? Math.max(...running) : 0;
    const notStarted = Math.max(0, left - this.runningCalls.length);
    const parallel = Math.max(1, Math.min(this.mostParallel, this.estimates?.capacity ?? 1));
    const wait = this.runningCalls.length === 0 && this.queuedAhead > 0 ? (this.waitMs ?? 0) : 0;
    return {
      estimate: wait + runningLeft + (notStarted * part.wall) / parallel,
      least: runningLeft + (notStarted * part.model) / parallel,
      part: part.wall / parallel,
    };
  }

  private shownSeconds(): number | null {
    const raw = this.rawMs();
    if (raw === null) return null;
    const now = this.now();
    const waitMs = this.waitMs ?? 0;
    let ms: number;
    if (this.shown === null || raw.estimate === 0) {
      ms = raw.estimate;
    } else {
      const counted = Math.max(0, this.shown.ms - (now - this.shown.at));
      if (raw.estimate <= counted) {
        ms = counted + SMOOTHING * (raw.estimate - counted);
      } else {
        // Up only by the growth of the queue in front and the parts added (a crawl finding more
        // pages), or, once this work's pace was measured, to what must still run at the least.
        const queueGrew = Math.max(0, waitMs - this.shown.waitMs);
        const partsAdded = Math.max(0, this.total - this.shown.total) * raw.part;
        const measured = this.estimatedMs > 0 || (this.lastEstimateMs === null && this.done > 0);
        const least = measured ? raw.least : 0;
        ms = Math.min(raw.estimate, Math.max(counted + queueGrew + partsAdded, least));
      }
    }
    this.shown = { ms, at: now, waitMs, total: this.total };
    return Math.round(ms / 1000);
  }

  private changed() {
    for (const l of this.listeners) l();
  }
}
