import type { ProgressEvent } from '@inkwell/contract';
import type { WorkHandle } from '../language-model';
import { workHeading } from './work-heading';
import { WorkPace, type CallFacts, type CallOutcome } from './work-pace';

/**
 * The progress of one long piece of AI work (a document action, a page analysis): its stage,
 * parts done of parts in all, where its next model call stands in the scheduler's queue, and an
 * estimate of the time left. Services move it forward; the scheduler tells it its queue position
 * and the model tells it when its calls start and end; whoever shows it (an SSE stream, a job row)
 * listens with onChange.
 *
 * The time left comes from what this work's own calls measured (work-pace.ts: their real prompt
 * and reply speed and the reply lengths they produced), before that from the model's estimate
 * for a call of that size, plus the wall-clock pace between parts (which holds the turns other
 * people's calls take in between), plus the wait in the queue. While little is known it comes
 * with a range. The figure shown counts down with the clock and moves most of the way towards
 * each lower estimate at once; it goes up by as much as the queue in front grew or parts were
 * added, and otherwise at most triples when a part ends: never the tenfold jump of a guess
 * replaced by a measure.
 */
export interface WorkEstimates {
  /** Estimated milliseconds of one call, when the model's speed has been measured. */
  callMs(): number | null;
  /** Calls the model runs at once. */
  capacity: number;
  /** Estimated milliseconds of a call of this size, from the model's measured speed. */
  estimateMs?(promptTokens: number, maxTokens: number): number;
  /** The longest a call of this size likely runs (call-estimator.ts). */
  likelyLongestMs?(promptTokens: number, maxTokens: number): number;
}

/** Model calls a stage announces among steps of another kind, with their size. */
export interface PlannedCalls {
  count: number;
  promptTokens: number;
  maxTokens: number;
}

/** How far a lower estimate moves the figure at once (good news need not wait long). */
const SMOOTHING = 0.8;
/** The most the figure grows when a part ends, beyond queue growth and added parts. */
const MOST_RISE = 3;
/** Parts measured before the time left is one figure rather than a range. */
const KNOWN_PARTS = 3;

interface RunningCall {
  startedAt: number;
  estimateMs: number;
  facts?: CallFacts;
}

export class WorkProgress implements WorkHandle {
  private stageName = 'starting';
  private done = 0;
  private total = 0;
  private queuedAhead = 0;
  private waitMs: number | null = null;
  /** Calls of this work running now: when each started, its estimate and its size. */
  private readonly runningCalls: RunningCall[] = [];
  private mostParallel = 1;
  private lastEstimateMs: number | null = null;
  private readonly pace = new WorkPace();
  private startedAt: number | null = null;
  private firstCallAt: number | null = null;
  private lastDoneAt: number | null = null;
  /** How long each part took while the work made no model call (a site audit's pages). */
  private readonly stepMs: number[] = [];
  private shown: {
    ms: number;
    at: number;
    waitMs: number;
    total: number;
    done: number;
    callsStarted: number;
  } | null = null;
  private callsStarted = 0;
  /**
   * Calls that ended with a reply whose part is not counted yet: a part is done once its reply is
   * stored, and meanwhile the next queued call may already run. Counted as done, so the time left
   * does not, for that moment, hold both the ended part and the next one (a translation's figure
   * jumped from 29 s to 52 s there, and back).
   */
  private endedUncounted = 0;
  /** Calls the work said it will make (stage's `callsAmongThem`), 0 when it did not say. */
  private plannedCalls = 0;
  /** The model's estimate of one of them. */
  private plannedCallMs: number | null = null;
  private partialResult: unknown;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly estimates?: WorkEstimates,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new stage, with the parts left from here on when they are known, and how many of them are
   * model calls when the others are steps of another kind (a site audit's pages, then one call):
   * the calls are then estimated as calls, not at the steps' pace.
   */
  stage(name: string, partsLeft?: number, callsAmongThem?: PlannedCalls) {
    this.stageName = name;
    this.startedAt ??= this.now();
    this.endedUncounted = 0;
    if (partsLeft !== undefined) this.total = this.done + partsLeft;
    if (callsAmongThem) {
      this.plannedCalls = this.callsStarted + callsAmongThem.count;
      const { promptTokens, maxTokens } = callsAmongThem;
      this.plannedCallMs = this.estimates?.estimateMs?.(promptTokens, maxTokens) ?? null;
    }
    this.changed();
  }

  /** More parts than planned (e.g. one more round of combining). */
  addParts(n: number) {
    this.total += n;
    this.changed();
  }

  partDone() {
    const now = this.now();
    const since = this.lastDoneAt ?? this.startedAt;
    if (this.lastEstimateMs === null && since !== null) this.stepMs.push(now - since);
    this.done += 1;
    this.endedUncounted = Math.max(0, this.endedUncounted - 1);
    if (this.done > this.total) this.total = this.done;
    this.lastDoneAt = now;
    this.changed();
  }

  /** The work's first results (proofread's findings), for whoever follows it before it ends. */
  partial(result: unknown) {
    this.partialResult = result;
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

  callStarted(estimateMs: number, facts?: CallFacts) {
    const at = this.now();
    this.firstCallAt ??= at;
    this.lastEstimateMs = estimateMs;
    this.callsStarted += 1;
    this.runningCalls.push({ startedAt: at, estimateMs, facts });
    this.pace.callStarted(facts);
    this.mostParallel = Math.max(this.mostParallel, this.runningCalls.length);
    this.changed();
  }

  callEnded(ranMs: number, outcome?: CallOutcome) {
    const call = this.runningCalls.shift();
    if (!call) return;
    // A call cut short (preempted, cancelled) or failed is no part done.
    if (outcome) this.endedUncounted += 1;
    this.pace.callEnded(call.facts, ranMs, outcome);
  }

  snapshot(): ProgressEvent {
    const waiting = this.runningCalls.length === 0 && this.queuedAhead > 0;
    const eta = this.shownEstimate();
    return {
      stage: this.stageName,
      heading: workHeading(this.stageName, this.done, this.total, waiting),
      done: this.done,
      total: this.total,
      queued_ahead: this.queuedAhead,
      eta_s: eta ? Math.round(eta.ms / 1000) : null,
      ...(eta?.range ? { eta_range_s: eta.range } : {}),
      running: this.runningCalls.length,
      queue_wait_s: waiting && this.waitMs !== null ? Math.round(this.waitMs / 1000) : null,
      ...(this.partialResult === undefined ? {} : { partial: this.partialResult }),
    };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Milliseconds of one more call of this work: from its own calls once one ended, before that
   * the model's estimate, raised to what a call still running has already taken.
   */
  private modelCallMs(promptTokens?: number): number | null {
    const measured = this.pace.callMs(promptTokens);
    if (measured !== null) return measured;
    const prior = this.lastEstimateMs ?? this.estimates?.callMs() ?? null;
    if (prior === null) return null;
    // A call that has run this long takes at least this long: so may the others.
    const now = this.now();
    const longest = Math.max(0, ...this.runningCalls.map((c) => now - c.startedAt));
    return Math.max(prior, longest);
  }

  /**
   * What a call is still likely to take while no call of this work has ended: the model's
   * estimate is then a guess at the reply's length, which may run from a few tokens to the
   * likely longest. A call still running has, on average, half of what that leaves, so the figure
   * slows down as the guess runs out rather than sitting at "1 s left" while the reply goes on (a
   * site audit's insights, its one call, said 1 s for the 3.7 s it still took).
   */
  private unmeasuredTailMs(call: RunningCall, ran: number): number {
    if (this.pace.finished > 0 || !call.facts) return 0;
    const { promptTokens, maxTokens } = call.facts;
    const longest = this.estimates?.likelyLongestMs?.(promptTokens, maxTokens);
    return longest === undefined ? 0 : Math.max(0, (longest - ran) / 2);
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
    // Steps that are no model call (a crawl) have no estimate before the first is done; work
    // that waits for its first call has the model's.
    const madeCalls = this.lastEstimateMs !== null;
    const steps = madeCalls ? null : this.stepPace();
    if (steps !== null) return { model: steps, wall: steps };
    const model = madeCalls
      ? this.modelCallMs()
      : (wallPace ?? (this.queuedAhead > 0 ? this.modelCallMs() : null));
    if (model === null) return null;
    return { model, wall: wallPace === null ? model : Math.max(model, wallPace) };
  }

  /**
   * The pace of steps that are no model call, leaving out the slowest once three are done: a
   * work's one-off start lands in one of its first steps (a site audit's first page launches the
   * browser: 2.8 s, then 0.4 s a page), and counted in the average it tripled the time left.
   */
  private stepPace(): number | null {
    if (this.stepMs.length < 3 || this.stepMs.length !== this.done) return null;
    const total = this.stepMs.reduce((a, b) => a + b, 0) - Math.max(...this.stepMs);
    return total / (this.stepMs.length - 1);
  }

  /**
   * The estimate from what is known now; `stepsMs`, the share of it that is steps of another kind
   * than the model calls announced among them (a site audit's pages before its insights).
   */
  private rawMs(): { estimate: number; part: number; stepsMs: number } | null {
    const left = this.total - this.done - this.endedUncounted;
    if (this.total === 0) return null; // the parts are not known yet
    if (left <= 0) return { estimate: 0, part: 0, stepsMs: 0 };
    const part = this.perPartMs();
    if (part === null) return null;
    const now = this.now();
    const running = this.runningCalls.map((c) => {
      const ran = now - c.startedAt;
      const expected = this.modelCallMs(c.facts?.promptTokens) ?? c.estimateMs;
      return Math.max(0, expected - ran, this.unmeasuredTailMs(c, ran));
    });
    const runningLeft = running.length ? Math.max(...running) : 0;
    const notStarted = Math.max(0, left - this.runningCalls.length);
    const parallel = Math.max(1, Math.min(this.mostParallel, this.estimates?.capacity ?? 1));
    const wait = this.runningCalls.length === 0 && this.queuedAhead > 0 ? (this.waitMs ?? 0) : 0;
    // Calls announced among steps of another kind: each at a call's cost, the rest at the pace.
    const calls = Math.min(notStarted, Math.max(0, this.plannedCalls - this.callsStarted));
    const callMs =
      calls > 0 ? (this.pace.callMs() ?? this.plannedCallMs ?? this.modelCallMs() ?? part.wall) : 0;
    const otherParts = ((notStarted - calls) * part.wall) / parallel;
    const estimate = wait + runningLeft + otherParts + (calls * callMs) / parallel;
    const stepsMs = this.plannedCalls > 0 ? otherParts : 0;
    // Work not done is never "0 s left": a call that runs past its estimate still runs.
    return { estimate: Math.max(1000, estimate), part: part.wall / parallel, stepsMs };
  }

  /**
   * Parts whose cost was measured: this work's ended calls, or its steps done when it has none.
   * Calls announced among steps are guessed until one has ended, however many steps were measured:
   * a site audit's one insights reply runs from a tenth of its allowance to all of it.
   */
  private knownParts(): number {
    if (this.plannedCalls > 0 && this.pace.finished === 0) return 0;
    return this.lastEstimateMs !== null ? this.pace.finished : this.done;
  }

  private shownEstimate(): { ms: number; range?: [number, number] } | null {
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
        // One short reply is no pace yet: while little is measured, good news moves it less.
        const smoothing = this.knownParts() < KNOWN_PARTS ? SMOOTHING / 2 : SMOOTHING;
        ms = counted + smoothing * (raw.estimate - counted);
      } else {
        // Up by the growth of the queue in front and the parts added (a crawl finding more
        // pages). Otherwise a call that runs longer than thought stops the countdown and, while
        // it overruns, the figure climbs at the pace that implies (each part left that much
        // longer); a part's end or a call's start brings a measure. Either way at most to three times the last
        // figure shown: never the tenfold jump of a guess replaced by a measure.
        const queueGrew = Math.max(0, waitMs - this.shown.waitMs);
        const partsAdded = Math.max(0, this.total - this.shown.total) * raw.part;
        const partsLeft = Math.max(1, this.total - this.done);
        const learnt =
          this.done > this.shown.done || this.callsStarted > this.shown.callsStarted
            ? Infinity
            : (now - this.shown.at) * partsLeft;
        const most = Math.max(this.shown.ms, 10_000) * MOST_RISE;
        ms = Math.min(
          raw.estimate,
          Math.max(counted + queueGrew + partsAdded, Math.min(counted + learnt, most)),
        );
      }
    }
    const { total, done, callsStarted } = this;
    if (this.done < this.total) ms = Math.max(1000, ms);
    this.shown = { ms, at: now, waitMs, total, done, callsStarted };
    const known = this.knownParts();
    if (ms === 0 || known >= KNOWN_PARTS) return { ms };
    // Little measured: the guessed share of the figure may be off by this much either way. The
    // steps before the calls, once their pace is measured, are not.
    const spread = known === 0 ? 2 : 1.5;
    const sure = this.done >= KNOWN_PARTS ? Math.min(ms, raw.stepsMs) : 0;
    const guessed = ms - sure;
    const range: [number, number] = [
      Math.round((sure + guessed / spread) / 1000),
      Math.round((sure + guessed * spread) / 1000),
    ];
    return { ms, range };
  }

  private changed() {
    for (const l of this.listeners) l();
  }
}
