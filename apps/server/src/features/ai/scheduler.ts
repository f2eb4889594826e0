import type { CallPriority, WorkHandle } from './language-model';

/**
 * The one queue in front of the model. It never runs more calls than the model has slots
 * (`capacity`), so its own order — not the upstream server's — decides who goes next:
 * - interactive calls (a person waits token by token) before batch calls (document work);
 * - batch calls take turns between owners (round-robin: the owner served least recently goes
 *   next, so one who comes and goes keeps no advantage), first in, first out within an owner;
 * - preemption: when an interactive call finds every slot busy with batch calls, the batch call
 *   that has run least is aborted and re-queued at the head of the batch queue;
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
  /** A preempted call coming back: it goes before every other batch call. */
  requeued?: boolean;
}

export interface Slot {
  /** Aborted when the call is preempted (batch calls only). */
  readonly signal: AbortSignal;
  /** True once the scheduler has taken the slot back for an interactive call. */
  readonly preempted: boolean;
  release(): void;
}

interface Ticket extends SlotRequest {
  grant(slot: Slot): void;
  fail(err: unknown): void;
  startedAt?: number;
  preemption?: AbortController;
}

/** Owners whose last turn is remembered, at most (beyond that, idle ones are forgotten). */
const MAX_REMEMBERED_OWNERS = 10_000;

/** The owner served longest ago (never served counts as longest); ties go to the first waiting. */
function leastRecentlyServed(
  owners: Iterable<string>,
  served: Map<string, number>,
): string | undefined {
  let best: string | undefined;
  let bestAt = Infinity;
  for (const o of owners) {
    const at = served.get(o) ?? -1;
    if (at < bestAt) {
      best = o;
      bestAt = at;
    }
  }
  return best;
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
}

export class Scheduler {
  private readonly running = new Set<Ticket>();
  private readonly interactive: Ticket[] = [];
  /** Preempted batch calls, which run before any other batch call. */
  private readonly requeued: Ticket[] = [];
  /** Batch calls per owner, and when each owner was last served (a rising sequence number). */
  private readonly batch = new Map<string, Ticket[]>();
  private readonly served = new Map<string, number>();
  private serveCount = 0;
  private readonly now: () => number;

  constructor(private readonly opts: SchedulerOptions) {
    if (opts.capacity < 1) throw new Error('the scheduler needs at least one slot');
    this.now = opts.now ?? Date.now;
  }

  get capacity() {
    return this.opts.capacity;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    let n = this.interactive.length + this.requeued.length;
    for (const q of this.batch.values()) n += q.length;
    return n;
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
    const all = this.order();
    this.interactive.length = 0;
    this.requeued.length = 0;
    this.batch.clear();
    for (const t of all) (t as Ticket).fail(err);
  }

  private enqueue(t: Ticket) {
    if (t.priority === 'interactive') this.interactive.push(t);
    else if (t.requeued) this.requeued.unshift(t);
    else {
      const q = this.batch.get(t.owner);
      if (q) q.push(t);
      else this.batch.set(t.owner, [t]);
    }
  }

  /** Removes a waiting ticket; false when it was not waiting (already running or gone). */
  private dequeue(t: Ticket): boolean {
    const lists = [this.interactive, this.requeued, this.batch.get(t.owner) ?? []];
    for (const list of lists) {
      const i = list.indexOf(t);
      if (i >= 0) {
        list.splice(i, 1);
        this.dropOwnerIfEmpty(t.owner);
        return true;
      }
    }
    return false;
  }

  private dropOwnerIfEmpty(owner: string) {
    if (this.batch.get(owner)?.length === 0) this.batch.delete(owner);
  }

  private next(): Ticket | undefined {
    const first = this.interactive.shift() ?? this.requeued.shift();
    if (first) return first;
    const owner = leastRecentlyServed(this.batch.keys(), this.served);
    if (owner === undefined) return undefined;
    const t = this.batch.get(owner)!.shift()!;
    this.served.set(owner, ++this.serveCount);
    if (this.served.size > MAX_REMEMBERED_OWNERS) this.forgetIdleOwners();
    this.dropOwnerIfEmpty(owner);
    return t;
  }

  /** The waiting tickets in dispatch order, without changing anything. */
  private order(): Ticket[] {
    const out = [...this.interactive, ...this.requeued];
    const queues = new Map([...this.batch].map(([o, q]) => [o, [...q]]));
    const served = new Map(this.served);
    let count = this.serveCount;
    for (;;) {
      const owner = leastRecentlyServed(queues.keys(), served);
      if (owner === undefined) return out;
      const q = queues.get(owner)!;
      out.push(q.shift()!);
      served.set(owner, ++count);
      if (q.length === 0) queues.delete(owner);
    }
  }

  /** Owners with nothing waiting are forgotten: next time they count as never served. */
  private forgetIdleOwners() {
    for (const owner of this.served.keys()) if (!this.batch.has(owner)) this.served.delete(owner);
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
    let released = false;
    const preemption = t.preemption;
    t.grant({
      signal: preemption.signal,
      get preempted() {
        return preemption.signal.aborted;
      },
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(t);
        this.dispatch();
        this.changed();
      },
    });
  }

  /** Takes slots from batch calls for the interactive calls that wait, one each. */
  private preemptFor() {
    if (!this.opts.preempt) return;
    const running = [...this.running];
    let yielding = running.filter((t) => t.preemption!.signal.aborted).length;
    const candidates = running
      .filter((t) => t.priority === 'batch' && !t.preemption!.signal.aborted)
      // The call that has run least loses the least work.
      .sort((a, b) => b.startedAt! - a.startedAt!);
    for (const t of candidates) {
      if (this.interactive.length <= yielding) return;
      t.preemption!.abort(new PreemptedError());
      yielding += 1;
    }
  }

  /** Tells every piece of work where its next waiting call stands. */
  private changed() {
    const works = new Set<WorkHandle>();
    for (const t of this.running) if (t.work) works.add(t.work);
    const seen = new Set<WorkHandle>();
    this.projection().forEach(({ ticket, waitMs }, position) => {
      if (!ticket.work) return;
      works.add(ticket.work);
      if (seen.has(ticket.work)) return;
      seen.add(ticket.work);
      ticket.work.setQueuedAhead(position, waitMs);
    });
    for (const w of works) if (!seen.has(w)) w.setQueuedAhead(0, 0);
  }
}
