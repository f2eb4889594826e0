import { describe, expect, it } from 'vitest';
import type { WorkHandle } from '../language-model';
import { PreemptedError, Scheduler, type Slot, type SlotRequest } from './scheduler';

const batch = (owner: string, extra: Partial<SlotRequest> = {}): SlotRequest => ({
  priority: 'batch',
  owner,
  estimateMs: 1000,
  ...extra,
});
const interactive = (owner = 'u'): SlotRequest => ({
  priority: 'interactive',
  owner,
  estimateMs: 1000,
});

/** Acquires slots and records the order in which they were granted. */
function recorder(scheduler: Scheduler) {
  const granted: string[] = [];
  const slots = new Map<string, Slot>();
  const take = (name: string, request: SlotRequest) =>
    scheduler.acquire(request).then((slot) => {
      granted.push(name);
      slots.set(name, slot);
      return slot;
    });
  const settle = () => new Promise((r) => setImmediate(r));
  return { granted, slots, take, settle };
}

describe('scheduler', () => {
  it("gives people's calls slot 0 and document work the others, so each slot keeps its cache", async () => {
    const s = new Scheduler({ capacity: 3, preempt: true });
    const r = recorder(s);
    void r.take('doc1', batch('o'));
    void r.take('doc2', batch('p'));
    await r.settle();
    expect([r.slots.get('doc1')!.index, r.slots.get('doc2')!.index]).toEqual([2, 1]);
    void r.take('chat', interactive());
    await r.settle();
    expect(r.slots.get('chat')!.index).toBe(0);
    r.slots.get('doc2')!.release();
    void r.take('doc3', batch('q'));
    await r.settle();
    expect(r.slots.get('doc3')!.index).toBe(1);
  });

  it('never runs more calls than it has slots', async () => {
    const s = new Scheduler({ capacity: 2, preempt: true });
    const r = recorder(s);
    for (const name of ['a', 'b', 'c', 'd']) void r.take(name, interactive(name));
    await r.settle();
    expect(r.granted).toEqual(['a', 'b']);
    expect(s.busy).toBe(2);
    expect(s.waiting).toBe(2);
    r.slots.get('a')!.release();
    await r.settle();
    expect(r.granted).toEqual(['a', 'b', 'c']);
    expect(s.busy).toBe(2);
    // A slot released twice is released once.
    r.slots.get('a')!.release();
    await r.settle();
    expect(r.granted).toEqual(['a', 'b', 'c']);
  });

  it('gives a free slot to interactive calls before batch calls', async () => {
    const s = new Scheduler({ capacity: 1, preempt: false });
    const r = recorder(s);
    void r.take('first', batch('A'));
    await r.settle();
    void r.take('batch', batch('B'));
    void r.take('chat', interactive());
    await r.settle();
    r.slots.get('first')!.release();
    await r.settle();
    expect(r.granted).toEqual(['first', 'chat']);
  });

  it('lets owners take turns with batch calls, first in first out within an owner', async () => {
    const s = new Scheduler({ capacity: 1, preempt: true });
    const r = recorder(s);
    void r.take('hold', batch('X'));
    await r.settle();
    for (let i = 1; i <= 4; i++) void r.take(`A${i}`, batch('A'));
    for (let i = 1; i <= 2; i++) void r.take(`B${i}`, batch('B'));
    void r.take('C1', batch('C'));
    await r.settle();
    for (let i = 0; i < 7; i++) {
      r.slots.get(r.granted.at(-1)!)!.release();
      await r.settle();
    }
    expect(r.granted).toEqual(['hold', 'A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'A4']);
  });

  it('keeps one slot of two or more for people: batch calls use at most capacity − 1', async () => {
    const s = new Scheduler({ capacity: 3, preempt: false });
    const r = recorder(s);
    for (const name of ['a', 'b', 'c']) void r.take(name, batch(name));
    await r.settle();
    expect(r.granted).toEqual(['a', 'b']);
    void r.take('chat', interactive());
    await r.settle();
    expect(r.granted).toEqual(['a', 'b', 'chat']);
    // With one slot, batch calls may use it (nothing else could run them).
    const one = new Scheduler({ capacity: 1, preempt: false });
    const o = recorder(one);
    void o.take('a', batch('A'));
    await o.settle();
    expect(o.granted).toEqual(['a']);
  });

  it('lets owners take turns with interactive calls too', async () => {
    const s = new Scheduler({ capacity: 1, preempt: false });
    const r = recorder(s);
    void r.take('hold', interactive('X'));
    await r.settle();
    for (let i = 1; i <= 3; i++) void r.take(`A${i}`, interactive('A'));
    void r.take('B1', interactive('B'));
    await r.settle();
    for (let i = 0; i < 4; i++) {
      r.slots.get(r.granted.at(-1)!)!.release();
      await r.settle();
    }
    expect(r.granted).toEqual(['hold', 'A1', 'B1', 'A2', 'A3']);
  });

  it('preempts the batch call that has run least for a waiting interactive call', async () => {
    let now = 0;
    const lost: number[] = [];
    const s = new Scheduler({
      capacity: 3,
      preempt: true,
      now: () => now,
      onPreempted: (ms) => lost.push(ms),
    });
    const r = recorder(s);
    void r.take('old', batch('A'));
    now = 100;
    void r.take('young', batch('B'));
    await r.settle();
    void r.take('queued', batch('C'));
    void r.take('chat1', interactive('p'));
    await r.settle();
    // The free slot goes to the first chat: nobody is preempted for it.
    expect(r.granted).toEqual(['old', 'young', 'chat1']);
    now = 300;
    void r.take('chat2', interactive('q'));
    await r.settle();
    const young = r.slots.get('young')!;
    expect(young.preempted).toBe(true);
    expect(young.signal.reason).toBeInstanceOf(PreemptedError);
    expect(r.slots.get('old')!.preempted).toBe(false);
    expect(lost).toEqual([200]);
    expect(s.preemptedMs).toBe(200);
    // The slot goes to the chat once the preempted call has let go of it.
    expect(r.granted).not.toContain('chat2');
    young.release();
    await r.settle();
    expect(r.granted.at(-1)).toBe('chat2');
    // The preempted call comes back before the other batch calls.
    void r.take('young again', batch('B', { requeued: true }));
    await r.settle();
    r.slots.get('chat2')!.release();
    await r.settle();
    expect(r.granted.at(-1)).toBe('young again');
  });

  it('preempts a batch call at most once, and not once it has run most of its estimate', async () => {
    let now = 0;
    const s = new Scheduler({ capacity: 1, preempt: true, now: () => now });
    const r = recorder(s);
    void r.take('again', batch('A', { requeued: true }));
    await r.settle();
    void r.take('chat', interactive());
    await r.settle();
    expect(r.slots.get('again')!.preempted).toBe(false);
    r.slots.get('again')!.release();
    await r.settle();
    r.slots.get('chat')!.release();
    void r.take('long', batch('A', { estimateMs: 1000 }));
    await r.settle();
    now = 501;
    void r.take('chat2', interactive());
    await r.settle();
    expect(r.slots.get('long')!.preempted).toBe(false);
    expect(s.preemptions).toBe(0);
  });

  it('preempts one batch call per waiting interactive call, and none with AI_PREEMPT=off', async () => {
    const s = new Scheduler({ capacity: 3, preempt: true });
    const r = recorder(s);
    void r.take('b1', batch('A'));
    void r.take('b2', batch('B'));
    void r.take('chat0', interactive('p'));
    await r.settle();
    void r.take('chat', interactive());
    await r.settle();
    expect([r.slots.get('b1')!.preempted, r.slots.get('b2')!.preempted].sort()).toEqual([
      false,
      true,
    ]);

    const off = new Scheduler({ capacity: 1, preempt: false });
    const o = recorder(off);
    void o.take('b', batch('A'));
    await o.settle();
    void o.take('chat', interactive());
    await o.settle();
    expect(o.slots.get('b')!.preempted).toBe(false);
    expect(o.granted).toEqual(['b']);
  });

  it('never preempts an interactive call', async () => {
    const s = new Scheduler({ capacity: 1, preempt: true });
    const r = recorder(s);
    void r.take('chat1', interactive('a'));
    await r.settle();
    void r.take('chat2', interactive('b'));
    await r.settle();
    expect(r.slots.get('chat1')!.preempted).toBe(false);
  });

  it('drops a waiting call whose signal aborts, and it never gets a slot', async () => {
    const s = new Scheduler({ capacity: 1, preempt: true });
    const r = recorder(s);
    void r.take('hold', batch('A'));
    await r.settle();
    const cancel = new AbortController();
    const cancelled = r.take('cancelled', batch('B', { signal: cancel.signal }));
    void r.take('next', batch('C'));
    await r.settle();
    expect(s.waiting).toBe(2);
    cancel.abort(new Error('client went away'));
    await expect(cancelled).rejects.toThrow('client went away');
    expect(s.waiting).toBe(1);
    r.slots.get('hold')!.release();
    await r.settle();
    expect(r.granted).toEqual(['hold', 'next']);
    // Already aborted: refused at once.
    await expect(s.acquire(batch('D', { signal: cancel.signal }))).rejects.toThrow();
  });

  it('knows the position and estimated wait of every waiting call, and tells their work', async () => {
    let now = 0;
    const s = new Scheduler({ capacity: 1, preempt: false, now: () => now });
    const r = recorder(s);
    const seen: [number, number | null][] = [];
    const work: WorkHandle = { setQueuedAhead: (calls, waitMs) => seen.push([calls, waitMs]) };
    void r.take('running', batch('A', { estimateMs: 4000 }));
    await r.settle();
    now = 1000;
    void r.take('chat', { ...interactive(), estimateMs: 2000 });
    void r.take('mine', batch('B', { estimateMs: 500, work }));
    await r.settle();
    const projection = s.projection();
    expect(projection.map((p) => p.waitMs)).toEqual([3000, 5000]);
    // Before it: the running call and the chat.
    expect(seen.at(-1)).toEqual([2, 5000]);
    r.slots.get('running')!.release();
    await r.settle();
    expect(seen.at(-1)).toEqual([1, 2000]);
    r.slots.get('chat')!.release();
    await r.settle();
    expect(r.granted.at(-1)).toBe('mine');
    expect(seen.at(-1)).toEqual([0, 0]);
  });

  it('tells the one who waits, not the one whose call runs', async () => {
    const s = new Scheduler({ capacity: 1, preempt: false });
    const r = recorder(s);
    const lines = { ada: [] as number[], bob: [] as number[] };
    const ada: WorkHandle = { setQueuedAhead: (calls) => lines.ada.push(calls) };
    const bob: WorkHandle = { setQueuedAhead: (calls) => lines.bob.push(calls) };
    void r.take('ada-1', batch('ada', { work: ada }));
    await r.settle();
    void r.take('ada-2', batch('ada', { work: ada }));
    void r.take('bob-1', batch('bob', { work: bob }));
    await r.settle();
    // Ada's call runs: she waits for nobody. Bob waits for Ada's running call.
    expect(lines.ada.at(-1)).toBe(0);
    expect(lines.bob.at(-1)).toBe(1);
    r.slots.get('ada-1')!.release();
    await r.settle();
    expect(r.granted.at(-1)).toBe('bob-1');
    expect(lines.bob.at(-1)).toBe(0);
    // Now Ada's next call waits for Bob's.
    expect(lines.ada.at(-1)).toBe(1);
  });

  it('fails every waiting call on shutdown', async () => {
    const s = new Scheduler({ capacity: 1, preempt: true });
    const r = recorder(s);
    void r.take('hold', batch('A'));
    await r.settle();
    const waiting = s.acquire(batch('B'));
    s.rejectAll(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    expect(s.waiting).toBe(0);
  });
  it("with slots on one processor, batch calls yield while a person's prompt is evaluated, once each", async () => {
    let now = 0;
    const s = new Scheduler({ capacity: 2, preempt: true, yieldToPeople: true, now: () => now });
    const r = recorder(s);
    void r.take('doc', batch('o', { estimateMs: 10_000 }));
    await r.settle();
    const doc = r.slots.get('doc')!;
    // A chat has the free slot at once, and the document call running beside it yields.
    void r.take('chat', interactive());
    await r.settle();
    expect(r.granted).toEqual(['doc', 'chat']);
    expect(doc.preempted).toBe(true);
    expect(doc.signal.reason).toBeInstanceOf(PreemptedError);
    expect(s.preemptions).toBe(1);
    // The document call comes back, but starts again only once the chat's prompt is evaluated.
    doc.release();
    void r.take('doc again', batch('o', { estimateMs: 10_000, requeued: true }));
    await r.settle();
    expect(r.granted).toEqual(['doc', 'chat']);
    r.slots.get('chat')!.evaluated();
    await r.settle();
    expect(r.granted).toEqual(['doc', 'chat', 'doc again']);
    // It keeps its slot index (the server's prompt cache for it) and is never preempted again.
    expect(r.slots.get('doc again')!.index).toBe(doc.index);
    r.slots.get('chat')!.release();
    now += 100;
    void r.take('chat 2', interactive());
    await r.settle();
    expect(r.slots.get('doc again')!.preempted).toBe(false);
    // A call past half its estimate is left to run too, as with preemption.
    r.slots.get('doc again')!.release();
    r.slots.get('chat 2')!.evaluated();
    r.slots.get('chat 2')!.release();
    void r.take('doc 2', batch('o', { estimateMs: 1000 }));
    await r.settle();
    now += 600;
    void r.take('chat 3', interactive());
    await r.settle();
    expect(r.slots.get('doc 2')!.preempted).toBe(false);
    expect(s.preemptions).toBe(1);
  });

  it('without yielding, a chat beside a running batch call leaves it alone', async () => {
    const s = new Scheduler({ capacity: 2, preempt: true });
    const r = recorder(s);
    void r.take('doc', batch('o'));
    void r.take('chat', interactive());
    await r.settle();
    expect(r.slots.get('doc')!.preempted).toBe(false);
    void r.take('doc 2', batch('p'));
    r.slots.get('doc')!.release();
    await r.settle();
    expect(r.granted).toEqual(['doc', 'chat', 'doc 2']);
  });
});
