import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/database';
import type { CallPriority } from '../language-model';
import { memoUntilFailure } from '../../../lib/memo-until-failure';

/**
 * The model server's slots shared by every process of a deployment on PostgreSQL (app servers
 * and workers), so the model server never gets more than AI_PARALLEL calls in total:
 * - a slot is a row of `ai_slots`, taken with `UPDATE … WHERE slot = (SELECT … FOR UPDATE SKIP
 *   LOCKED)`: two processes never take the same row;
 * - each is held under a lease that its process renews every LEASE_MS / 4; a process that dies
 *   (or stalls) stops renewing and its slots are free again LEASE_MS later;
 * - room for people across processes too: with two slots or more, slot 0 is for interactive
 *   calls only, so batch calls hold at most AI_PARALLEL − 1 in total;
 * - turns between owners across processes: a waiting batch call is listed in `ai_slot_waiters`
 *   (renewed while it waits), and takes a slot only when its owner is the one served least
 *   recently (`ai_slot_turns`) among the live waiters, so one user's calls from several
 *   processes cannot outnumber another's;
 * - a call that finds no free slot polls again every few tens of milliseconds.
 * Each process's own scheduler (scheduler.ts) still decides which of its calls asks next.
 */
export const LEASE_MS = 5000;
const POLL_MS = 25;
/** A waiting call not renewed for this long (its process died) no longer holds others back. */
const WAITER_TTL_MS = 2000;
const NOW_MS = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export interface SharedSlotLease {
  /** The model server's slot (0 is kept for people when there are two or more). */
  slot: number;
  release(): Promise<void>;
}

export class SharedSlots {
  private readonly process = randomUUID();
  private readonly held = new Set<number>();
  private renewer?: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly capacity: number,
    private readonly leaseMs = LEASE_MS,
  ) {}

  /** Waits for a free slot of the model server; rejects when the signal aborts first. */
  async acquire(
    priority: CallPriority,
    owner: string,
    signal?: AbortSignal,
  ): Promise<SharedSlotLease> {
    await this.rowsReady();
    // With two slots or more, batch calls never take slot 0: it waits for a person.
    const batch = priority === 'batch';
    const lowest = batch && this.capacity >= 2 ? 1 : 0;
    const waiter = priority === 'batch' ? randomUUID() : undefined;
    try {
      for (;;) {
        signal?.throwIfAborted();
        if (waiter) await this.stillWaiting(waiter, owner);
        const slot = await this.tryTake(lowest, batch ? 'desc' : 'asc', owner, waiter);
        if (slot !== undefined) {
          if (waiter) await this.served(owner);
          return this.lease(slot);
        }
        await pause(POLL_MS + Math.random() * POLL_MS, signal);
      }
    } finally {
      if (waiter)
        await this.db
          .deleteFrom('ai_slot_waiters')
          .where('id', '=', waiter)
          .execute()
          .catch(() => {});
    }
  }

  /** Lists (or renews) a waiting batch call; a process that dies stops renewing it. */
  private async stillWaiting(id: string, owner: string) {
    const expires = sql<number>`${NOW_MS} + ${WAITER_TTL_MS}`;
    await this.db
      .insertInto('ai_slot_waiters')
      .values({ id, owner, since: sql`${NOW_MS}`, expires_at: expires })
      .onConflict((oc) => oc.column('id').doUpdateSet({ expires_at: expires }))
      .execute();
  }

  private async served(owner: string) {
    await this.db
      .insertInto('ai_slot_turns')
      .values({ owner, served_at: sql`${NOW_MS}` })
      .onConflict((oc) => oc.column('owner').doUpdateSet({ served_at: sql`${NOW_MS}` }))
      .execute()
      .catch(() => {});
  }

  /** Frees every slot this process holds (it is stopping). */
  async close() {
    clearInterval(this.renewer);
    this.renewer = undefined;
    await this.db
      .updateTable('ai_slots')
      .set({ holder: null, owner: null, expires_at: null })
      .where('holder', '=', this.process)
      .execute()
      .catch(() => {});
    this.held.clear();
  }

  /**
   * The slot rows, created once. A try that failed (the database restarting) is not kept: kept,
   * it failed every model call of this process until it restarted.
   */
  private readonly rowsReady = memoUntilFailure(() => this.createRows());

  private async createRows() {
    const rows = Array.from({ length: this.capacity }, (_, slot) => ({ slot }));
    await this.db
      .insertInto('ai_slots')
      .values(rows)
      .onConflict((oc) => oc.column('slot').doNothing())
      .execute();
  }

  /**
   * Takes a free slot: the lowest for a person (`asc`: slot 0, whose prompt cache keeps the
   * chat's system prompt, unless another chat holds it), the highest for document work (`desc`),
   * as the scheduler of each process numbers them (scheduler.ts freeIndex).
   */
  private async tryTake(
    lowest: number,
    order: 'asc' | 'desc',
    owner: string,
    waiter: string | undefined,
  ): Promise<number | undefined> {
    const now = NOW_MS;
    let update = this.db
      .updateTable('ai_slots')
      .set({ holder: this.process, owner, expires_at: sql`${now} + ${this.leaseMs}` })
      .where('slot', '=', (eb) =>
        eb
          .selectFrom('ai_slots as s')
          .select('s.slot')
          .where('s.slot', '>=', lowest)
          .where('s.slot', '<', this.capacity)
          .where((w) => w.or([w('s.holder', 'is', null), w('s.expires_at', '<', now)]))
          .orderBy('s.slot', order)
          .limit(1)
          .forUpdate()
          .skipLocked(),
      );
    if (waiter) {
      // Only the first live batch waiter in turn between owners may take a slot.
      update = update.where(
        (eb) =>
          eb
            .selectFrom('ai_slot_waiters as w')
            .leftJoin('ai_slot_turns as t', 't.owner', 'w.owner')
            .select('w.id')
            .where('w.expires_at', '>', now)
            .orderBy(sql`t.served_at nulls first`)
            .orderBy('w.since')
            .orderBy('w.id')
            .limit(1),
        '=',
        waiter,
      );
    }
    const row = await update.returning('slot').executeTakeFirst();
    return row?.slot;
  }

  private lease(slot: number): SharedSlotLease {
    this.held.add(slot);
    this.renewer ??= setInterval(() => void this.renew(), Math.floor(this.leaseMs / 4));
    let released = false;
    return {
      slot,
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(slot);
        if (this.held.size === 0) {
          clearInterval(this.renewer);
          this.renewer = undefined;
        }
        await this.db
          .updateTable('ai_slots')
          .set({ holder: null, owner: null, expires_at: null })
          .where('slot', '=', slot)
          .where('holder', '=', this.process)
          .execute()
          .catch(() => {}); // the lease expires by itself
      },
    };
  }

  private async renew() {
    if (this.held.size === 0) return;
    await this.db
      .updateTable('ai_slots')
      .set({
        expires_at: sql`${NOW_MS} + ${this.leaseMs}`,
      })
      .where('holder', '=', this.process)
      .where('slot', 'in', [...this.held])
      .execute()
      .catch(() => {}); // a database hiccup: the next renewal tries again, well within the lease
  }
}

function pause(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
