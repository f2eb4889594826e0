import { describe, expect, it } from 'vitest';
import { WorkProgress } from './work-progress';

/** A clock the test moves by hand. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('WorkProgress time left', () => {
  it('counts down with the clock while a part runs, from the call estimate', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('summarizing', 6);
    expect(p.snapshot().eta_s).toBeNull(); // nothing measured yet
    p.callStarted(20_000);
    expect(p.snapshot()).toMatchObject({ eta_s: 120, running: 1, done: 0 });
    c.advance(10_000);
    expect(p.snapshot().eta_s).toBe(110);
    c.advance(10_000);
    p.callEnded(20_000);
    p.partDone();
    expect(p.snapshot().eta_s).toBe(100);
  });

  it('learns from the calls that ran longer than estimated, without jumping up', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('summarizing', 6);
    const shown: number[] = [];
    const truth: number[] = []; // the real seconds left at each reading: 6 parts of 20 s
    const read = () => {
      shown.push(p.snapshot().eta_s!);
      truth.push(120 - c.now() / 1000);
    };
    for (let part = 0; part < 6; part++) {
      p.callStarted(10_000); // the model's estimate says 10 s; each really takes 20 s
      read();
      for (let s = 0; s < 4; s++) {
        c.advance(5_000);
        read();
      }
      p.callEnded(20_000);
      p.partDone();
      read();
    }
    expect(shown.at(-1)).toBe(0);
    // Once the first part was measured: the truth was 100 s, and from there it only counts down.
    expect(shown[5]).toBe(100);
    for (let i = 6; i < shown.length; i++) expect(shown[i]).toBeLessThanOrEqual(shown[i - 1]!);
    // Each later reading is within 5 s of the real time left.
    for (let i = 5; i < shown.length; i++) {
      expect(Math.abs(shown[i]! - truth[i]!)).toBeLessThanOrEqual(5);
    }
  });

  it('adds the queue wait while it waits, and rises only as much as the queue grew', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => 4_000, capacity: 1 }, c.now);
    p.stage('summarizing', 1);
    p.setQueuedAhead(1, 20_000);
    expect(p.snapshot()).toMatchObject({ eta_s: 24, queue_wait_s: 20, running: 0 });
    c.advance(5_000);
    p.setQueuedAhead(2, 40_000); // someone's long call queued before it
    expect(p.snapshot().eta_s).toBe(39); // 19 left, plus the 20 s the queue grew
    p.setQueuedAhead(0, 0);
    p.callStarted(4_000);
    expect(p.snapshot()).toMatchObject({ running: 1, queue_wait_s: null });
    expect(p.snapshot().eta_s).toBeLessThan(39);
  });
});

describe('WorkProgress of steps that are no model call', () => {
  it('estimates from the pace of the steps done (a page audit)', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('auditing', 5);
    expect(p.snapshot().eta_s).toBeNull();
    c.advance(4_000);
    p.partDone();
    expect(p.snapshot().eta_s).toBe(16);
    c.advance(4_000);
    p.partDone();
    expect(p.snapshot().eta_s).toBe(12);
  });
});
