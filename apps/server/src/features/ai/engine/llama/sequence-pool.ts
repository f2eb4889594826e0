import type { CallPriority } from '../../language-model';

/**
 * Hands out a fixed set of resources (the context's sequences) one request at a time.
 * - Room for people: with two or more items, batch requests leave a quarter of them (at least one)
 *   to interactive ones, so a chat never waits for a whole document reply, and a few chats in a
 *   row find a sequence that needs no cut (a used one is cut before it returns; see llama-model).
 * - Interactive waiters are served before batch waiters; within a priority, in order.
 * - A waiter whose signal aborts leaves the queue; one that waited still gets the free item it
 *   scores best.
 */
export interface AcquireOptions<T> {
  signal?: AbortSignal;
  priority?: CallPriority;
  /** How much the request would like a free item (higher is better; ties: the last freed). */
  score?: (item: T) => number;
}

interface Waiter<T> {
  resolve: (item: T) => void;
  reject: (err: unknown) => void;
  score?: (item: T) => number;
}

export class Pool<T> {
  private readonly free: T[];
  private readonly size: number;
  private readonly holders = new Map<T, CallPriority>();
  private readonly waiting: Record<CallPriority, Waiter<T>[]> = { interactive: [], batch: [] };

  constructor(items: T[]) {
    this.free = [...items];
    this.size = items.length;
  }

  /** Requests waiting for a free item. */
  get queued() {
    return this.waiting.interactive.length + this.waiting.batch.length;
  }

  /** Items held by batch requests. */
  get batchHeld() {
    let n = 0;
    for (const p of this.holders.values()) if (p === 'batch') n++;
    return n;
  }

  /** The best free item for the request now, or the next one released to it. */
  acquire(opts: AcquireOptions<T> = {}): Promise<T> {
    const { signal, priority = 'interactive', score } = opts;
    signal?.throwIfAborted();
    if (this.mayTake(priority) && this.waiting[priority].length === 0) {
      const item = this.take(score);
      if (item !== undefined) return Promise.resolve(this.hold(item, priority));
    }
    return new Promise<T>((resolve, reject) => {
      const queue = this.waiting[priority];
      const waiter: Waiter<T> = {
        resolve: (item) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(item);
        },
        reject,
        score,
      };
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  /**
   * A free item that `wanted` accepts, taken now without queueing (upkeep while the pool is quiet:
   * it counts as interactive, so it never holds back batch work); release() it after.
   */
  takeFree(wanted: (item: T) => boolean): T | undefined {
    const i = this.free.findIndex(wanted);
    if (i < 0) return undefined;
    return this.hold(this.free.splice(i, 1)[0]!, 'interactive');
  }

  release(item: T) {
    this.holders.delete(item);
    this.free.push(item);
    this.handOut();
  }

  /** Fails every waiter (shutdown). */
  rejectAll(err: unknown) {
    for (const q of Object.values(this.waiting)) for (const w of q.splice(0)) w.reject(err);
  }

  private mayTake(priority: CallPriority) {
    return priority === 'interactive' || this.size < 2 || this.batchHeld < this.batchLimit;
  }

  /** Most items batch requests may hold. */
  get batchLimit() {
    return this.size < 2 ? this.size : this.size - Math.max(1, Math.floor(this.size / 4));
  }

  private take(score?: (item: T) => number): T | undefined {
    if (this.free.length === 0) return undefined;
    let best = this.free.length - 1;
    if (score) {
      for (let i = this.free.length - 1; i >= 0; i--)
        if (score(this.free[i]!) > score(this.free[best]!)) best = i;
    }
    return this.free.splice(best, 1)[0];
  }

  private hold(item: T, priority: CallPriority) {
    this.holders.set(item, priority);
    return item;
  }

  private handOut() {
    for (const priority of ['interactive', 'batch'] as const) {
      const queue = this.waiting[priority];
      while (queue.length > 0 && this.free.length > 0 && this.mayTake(priority)) {
        // Held before the waiter resumes, so the next check counts it.
        const waiter = queue.shift()!;
        waiter.resolve(this.hold(this.take(waiter.score)!, priority));
      }
    }
  }
}
