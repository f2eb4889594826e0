import type { CallPriority, WorkHandle } from '../language-model';
import { OwnerTurns } from './owner-turns';

/**
 * The one queue in front of the model. It never runs more calls than the model has slots
 * (`capacity`), so its own order — not the upstream server's — decides who goes next:
 * - interactive calls (a person waits token by token) before batch calls (document work);
 * - within each priority, owners take turns (owner-turns.ts): one user's burst of chats or
 *   summaries cannot hold another's back;
 * - room for people: with two slots or more, batch calls use at most `capacity − 1` of them, so a
 *   chat never waits for document work;
 * - preemption, within a budget: when an interactive call finds every slot busy with batch calls,
 *   the batch call that has run least is aborted and re-queued ahead of the other batch calls;
 *   a call is preempted at most once, and never once it has run more than half its estimate.
 *   The run time preempted calls had had is counted (`preemptedMs`): the most they lost (with a
 *   prompt cache on the model server, the resumed call redoes less);
 * - yielding (`yieldToPeople`, slots that share one processor): while an interactive call's prompt
 *   is evaluated (until its slot says `evaluated()`), running batch calls are preempted within the
 *   same budget and no batch call starts, so the person's prompt has the processor to itself;
 * - every waiting call knows its position and an estimate of its wait.
 * The scheduler only hands out slots; scheduled-model.ts runs the calls in them.
 */
export interface SlotRequest {
  priority: CallPriority;
  owner: string;
  /** Estimated run time of the call, for the wait estimates of the calls behind it. */
  estimateMs: number;
  work?: WorkHandle;
  signal?: AbortSignal;
  /** A preempted call coming back: it goes before every other batch call, never preempted again. */
  requeued?: boolean;
}

export interface Slot {
  /**
   * Which of the model server's slots it is: the lowest free for an interactive call (slot 0 is
   * the people's slot), the highest free for a batch call.
   */
  readonly index: number;
  /** Aborted when the call is preempted (batch calls only). */
  readonly signal: AbortSignal;
  /** True once the scheduler has taken the slot back for an interactive call. */
  readonly preempted: boolean;
  /** An interactive call's prompt is evaluated (its first piece came): document work goes on. */
  evaluated(): void;
  release(): void;
}

/** A batch call that has run more than this share of its estimate is left to finish. */
const PREEMPT_BEFORE_SHARE = 0.5;

interface Ticket extends SlotRequest {
  grant(slot: Slot): void;
  fail(err: unknown): void;
  startedAt?: number;
  preemption?: AbortController;
}

export class PreemptedError extends Error {
  constructor() {
    super('preempted by an interactive call');
    this.name = 'PreemptedError';
  }
}

export interface SchedulerOptions {
  capacity: number;
  /** AI_PREEMPT: interactive calls may interrupt batch calls (default true). */
  preempt: boolean;
  now?: () => number;
  /** Told of each preemption, with the run time the preempted call had had (for the metrics). */
  onPreempted?: (ranMs: number) => void;
  /** The slots share one processor: batch calls yield while a person's prompt is evaluated. */
  yieldToPeople?: boolean;
}

export class Scheduler {
  private readonly running = new Set<Ticket>();
  /** Slot indexes in use. */
  private readonly taken = new Set<number>();
  private readonly interactive = new OwnerTurns<Ticket>();
  /** Preempted batch calls, which run before any other batch call. */
  private readonly requeued: Ticket[] = [];
  private readonly batch = new OwnerTurns<Ticket>();
  private readonly now: () => number;
  /** Run time of the batch calls that were preempted, in total (the most that was lost). */
  preemptedMs = 0;
  preemptions = 0;
  /** Interactive calls whose prompt is being evaluated while batch calls yield to them. */
  private evaluating = 0;

  constructor(private readonly opts: SchedulerOptions) {
    if (opts.capacity < 1) throw new Error('the scheduler needs at least one slot');
    this.now = opts.now ?? Date.now;
  }

  get capacity() {
    return this.opts.capacity;
  }

  /** Slots batch calls may hold at once: all but one when there are two or more. */
  get batchCapacity() {
    return Math.max(1, this.opts.capacity - 1);
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.interactive.size + this.requeued.length + this.batch.size;
  }

  get busy(): number {
    return this.running.size;
  }

  /** Resolves with a slot when it is this call's turn; rejects if its signal aborts first. */
  acquire(request: SlotRequest): Promise<Slot> {
    if (request.signal?.aborted) return Promise.reject(request.signal.reason as Error);
    return new Promise<Slot>((resolve, reject) => {
      const ticket: Ticket = { ...request, grant: resolve, fail: reject };
      const onAbort = () => {
        if (this.dequeue(ticket)) {
          reject(request.signal?.reason);
          this.changed();
        }
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      ticket.grant = (slot) => {
        request.signal?.removeEventListener('abort', onAbort);
        resolve(slot);
      };
      this.enqueue(ticket);
      this.dispatch();
      if (ticket.priority === 'interactive') this.preemptFor();
      this.changed();
    });
  }

  /**
   * Waiting calls in the order they will get a slot, with the estimated wait of each: running
   * calls' remaining time and the calls ahead, spread over the slots.
   */
  projection(): { ticket: SlotRequest; waitMs: number }[] {
    const now = this.now();
    const free = Array.from({ length: this.capacity }, () => 0);
    let i = 0;
    for (const t of this.running) free[i++] = Math.max(0, t.estimateMs - (now - t.startedAt!));
    return this.order().map((ticket) => {
      let best = 0;
      for (let s = 1; s < free.length; s++) if (free[s]! < free[best]!) best = s;
      const waitMs = free[best]!;
      free[best] = waitMs + ticket.estimateMs;
      return { ticket, waitMs };
    });
  }

  /** Fails every waiting call (shutdown). */
  rejectAll(err: unknown) {
    const all = [...this.interactive.clear(), ...this.requeued, ...this.batch.clear()];
    this.requeued.length = 0;
    for (const t of all) t.fail(err);
  }

  private enqueue(t: Ticket) {
    if (t.priority === 'interactive') this.interactive.push(t);
    else if (t.requeued) this.requeued.unshift(t);
    else this.batch.push(t);
  }

  /** Removes a waiting ticket; false when it was not waiting (already running or gone). */
  private dequeue(t: Ticket): boolean {
    const i = this.requeued.indexOf(t);
    if (i >= 0) {
      this.requeued.splice(i, 1);
      return true;
    }
    return this.interactive.remove(t) || this.batch.remove(t);
  }

  private batchRunning(): number {
    let n = 0;
    for (const t of this.running) if (t.priority === 'batch') n += 1;
    return n;
  }

  private next(): Ticket | undefined {
    const first = this.interactive.shift();
    if (first) return first;
    if (this.batchRunning() >= this.batchCapacity || this.evaluating > 0) return undefined;
    return this.requeued.shift() ?? this.batch.shift();
  }

  /** The waiting tickets in dispatch order, without changing anything. */
  private order(): Ticket[] {
    return [...this.interactive.order(), ...this.requeued, ...this.batch.order()];
  }

  private dispatch() {
    while (this.running.size < this.capacity) {
      const t = this.next();
      if (!t) return;
      this.start(t);
    }
  }

  private start(t: Ticket) {
    t.startedAt = this.now();
    t.preemption = new AbortController();
    this.running.add(t);
    const index = this.freeIndex(t.priority);
    this.taken.add(index);
    let released = false;
    let evaluating = false;
    const evaluated = () => {
      if (!evaluating) return;
      evaluating = false;
      this.evaluating -= 1;
      this.dispatch();
    };
    if (this.opts.yieldToPeople && t.priority === 'interactive') {
      evaluating = true;
      this.evaluating += 1;
      this.yieldTo();
    }
    const preemption = t.preemption;
    t.grant({
      index,
      signal: preemption.signal,
      get preempted() {
        return preemption.signal.aborted;
      },
      evaluated,
      release: () => {
        if (released) return;
        released = true;
        if (evaluating) {
          evaluating = false;
          this.evaluating -= 1;
        }
        this.running.delete(t);
        this.taken.delete(index);
        this.dispatch();
        this.changed();
      },
    });
  }

  private freeIndex(priority: CallPriority): number {
    const free = Array.from({ length: this.capacity }, (_, i) => i).filter(
      (i) => !this.taken.has(i),
    );
    return (priority === 'interactive' ? free[0] : free.at(-1)) ?? 0;
  }

  /** Whether a running batch call may still be preempted (its budget: once, and early). */
  private preemptible(t: Ticket, now: number): boolean {
    if (t.priority !== 'batch' || t.requeued || t.preemption!.signal.aborted) return false;
    return now - t.startedAt! <= t.estimateMs * PREEMPT_BEFORE_SHARE;
  }

  /** Every running batch call still within its budget yields (shared processor). */
  private yieldTo() {
    if (!this.opts.preempt) return;
    const now = this.now();
    for (const t of this.running) if (this.preemptible(t, now)) this.preempt(t, now);
  }

  private preempt(t: Ticket, now: number) {
    const ranMs = now - t.startedAt!;
    this.preemptedMs += ranMs;
    this.preemptions += 1;
    this.opts.onPreempted?.(ranMs);
    t.preemption!.abort(new PreemptedError());
  }

  /** Takes slots from batch calls for the interactive calls that wait, one each. */
  private preemptFor() {
    if (!this.opts.preempt) return;
    const now = this.now();
    const running = [...this.running];
    let yielding = running.filter((t) => t.preemption!.signal.aborted).length;
    const candidates = running
      .filter((t) => this.preemptible(t, now))
      // The call that has run least loses the least work.
      .sort((a, b) => b.startedAt! - a.startedAt!);
    for (const t of candidates) {
      if (this.interactive.size <= yielding) return;
      this.preempt(t, now);
      yielding += 1;
    }
  }

  /**
   * Tells every piece of work where its next waiting call stands: the calls that run before it
   * are the running ones (every slot is taken, or it would not wait) and those queued ahead of
   * it. Work with a call running waits for nobody: its queue line is 0.
   */
  private changed() {
    const seen = new Set<WorkHandle>();
    for (const t of this.running) {
      if (!t.work || seen.has(t.work)) continue;
      seen.add(t.work);
      t.work.setQueuedAhead(0, 0);
    }
    const busy = this.running.size;
    this.projection().forEach(({ ticket, waitMs }, position) => {
      if (!ticket.work || seen.has(ticket.work)) return;
      seen.add(ticket.work);
      ticket.work.setQueuedAhead(busy + position, waitMs);
    });
  }
}
