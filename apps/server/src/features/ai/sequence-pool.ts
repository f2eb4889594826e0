/**
 * Hands out a fixed set of resources (the context's sequences) one request at a time; requests
 * beyond them wait in order. A waiter whose signal aborts leaves the queue.
 */
export class Pool<T> {
  private readonly free: T[];
  private readonly waiting: {
    resolve: (item: T) => void;
    reject: (err: unknown) => void;
    signal?: AbortSignal;
  }[] = [];

  constructor(items: T[]) {
    this.free = [...items];
  }

  /** Requests waiting for a free item. */
  get queued() {
    return this.waiting.length;
  }

  /** A free item (one that `prefer` accepts, if any does), or the next one released. */
  acquire(signal?: AbortSignal, prefer?: (item: T) => boolean): Promise<T> {
    signal?.throwIfAborted();
    const preferred = prefer ? this.free.findIndex(prefer) : -1;
    const item = preferred >= 0 ? this.free.splice(preferred, 1)[0] : this.free.pop();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise<T>((resolve, reject) => {
      const waiter = { resolve, reject, signal };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      waiter.resolve = (v) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(v);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  release(item: T) {
    const next = this.waiting.shift();
    if (next) next.resolve(item);
    else this.free.push(item);
  }

  /** Fails every waiter (shutdown). */
  rejectAll(err: unknown) {
    for (const w of this.waiting.splice(0)) w.reject(err);
  }
}
