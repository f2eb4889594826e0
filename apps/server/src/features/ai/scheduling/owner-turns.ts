/**
 * Waiting items grouped by owner, taken in turns: the owner served least recently goes next
 * (never served counts as longest ago, so one who comes and goes keeps no advantage), first in,
 * first out within an owner. The scheduler keeps one for interactive calls and one for batch calls.
 */

/** Owners whose last turn is remembered, at most (beyond that, idle ones are forgotten). */
const MAX_REMEMBERED_OWNERS = 10_000;

export class OwnerTurns<T extends { owner: string }> {
  private readonly queues = new Map<string, T[]>();
  /** When each owner was last served (a rising sequence number). */
  private readonly served = new Map<string, number>();
  private serveCount = 0;

  get size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  push(item: T) {
    const q = this.queues.get(item.owner);
    if (q) q.push(item);
    else this.queues.set(item.owner, [item]);
  }

  /** Removes a waiting item; false when it was not here. */
  remove(item: T): boolean {
    const q = this.queues.get(item.owner);
    const i = q?.indexOf(item) ?? -1;
    if (i < 0) return false;
    q!.splice(i, 1);
    if (q!.length === 0) this.queues.delete(item.owner);
    return true;
  }

  /** The next item in turn, taken out (and its owner marked served). */
  shift(): T | undefined {
    const owner = leastRecentlyServed(this.queues.keys(), this.served);
    if (owner === undefined) return undefined;
    const q = this.queues.get(owner)!;
    const item = q.shift()!;
    if (q.length === 0) this.queues.delete(owner);
    this.served.set(owner, ++this.serveCount);
    if (this.served.size > MAX_REMEMBERED_OWNERS) {
      for (const o of this.served.keys()) if (!this.queues.has(o)) this.served.delete(o);
    }
    return item;
  }

  /** Every waiting item in the order shift() would take them, without changing anything. */
  order(): T[] {
    const out: T[] = [];
    const queues = new Map([...this.queues].map(([o, q]) => [o, [...q]]));
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

  clear(): T[] {
    const all = this.order();
    this.queues.clear();
    return all;
  }
}

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
