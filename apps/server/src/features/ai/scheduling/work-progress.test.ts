import { describe, expect, it } from 'vitest';
import { CallEstimator } from './call-estimator';
import { WorkPace } from './work-pace';
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

  it('does not count a part twice while its reply is stored and the next call already runs', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('translating', 5);
    const outcome = { replyTokens: 500, firstPieceMs: 2_000 };
    for (let part = 0; part < 3; part++) {
      p.callStarted(20_000, { promptTokens: 600, maxTokens: 1_000 });
      c.advance(20_000);
      p.callEnded(20_000, outcome);
      p.partDone();
    }
    p.callStarted(20_000, { promptTokens: 600, maxTokens: 1_000 });
    expect(p.snapshot().eta_s).toBe(40); // parts 4 and 5 left
    c.advance(20_000);
    p.callEnded(20_000, outcome);
    // Part 4's reply is being stored; part 5's call, queued, starts at once.
    p.callStarted(20_000, { promptTokens: 600, maxTokens: 1_000 });
    expect(p.snapshot()).toMatchObject({ eta_s: 20, done: 3, running: 1 });
    p.partDone();
    expect(p.snapshot()).toMatchObject({ eta_s: 20, done: 4 });
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
  it("counts a call announced among the steps at a call's cost (a site audit's insights)", () => {
    const c = clock();
    // Four pages' steps, then the insights call: the model estimates 10 s for its size.
    const estimates = { callMs: () => 30_000, capacity: 1, estimateMs: () => 10_000 };
    const p = new WorkProgress(estimates, c.now);
    p.stage('crawling', 5, { count: 1, promptTokens: 1_500, maxTokens: 600 });
    expect(p.snapshot().eta_s).toBeNull(); // no step done: no pace yet
    c.advance(1_000);
    p.partDone();
    c.advance(1_000);
    p.partDone();
    // Two steps left at 1 s each, and the call at the model's 10 s.
    expect(p.snapshot().eta_s).toBe(12);
  });

  it('never says 0 s left while parts remain', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('summarizing', 1);
    p.callStarted(2_000);
    c.advance(5_000); // past its estimate
    expect(p.snapshot().eta_s).toBe(1);
    p.callEnded(5_000);
    p.partDone();
    expect(p.snapshot().eta_s).toBe(0);
  });

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

  it("leaves a slow first page out of the steps' pace, and plans the call at its latest size", () => {
    const c = clock();
    // The model's estimate of a call: 10 ms a prompt token.
    const estimates = {
      callMs: () => null,
      capacity: 1,
      estimateMs: (prompt: number) => prompt * 10,
    };
    const p = new WorkProgress(estimates, c.now);
    p.stage('crawling', 9, { count: 1, promptTokens: 1_500, maxTokens: 600 });
    // The second step launches the browser: 8 s, the others 1 s.
    for (const ms of [1_000, 8_000, 1_000, 1_000]) {
      c.advance(ms);
      p.partDone();
    }
    // The pages audited so far make a prompt of 300 tokens: 3 s, not 15 s.
    p.stage('crawling', undefined, { count: 1, promptTokens: 300, maxTokens: 600 });
    // Four steps at 1 s (the 8 s left out), then the call: 7 s (the average pace said 14 s).
    expect(p.snapshot().eta_s).toBe(7);
  });
  it('shows a range for the announced call until one has ended, however many steps were measured', () => {
    const c = clock();
    const estimates = { callMs: () => null, capacity: 1, estimateMs: () => 10_000 };
    const p = new WorkProgress(estimates, c.now);
    p.stage('crawling', 9, { count: 1, promptTokens: 300, maxTokens: 600 });
    for (let i = 0; i < 4; i++) {
      c.advance(1_000);
      p.partDone();
    }
    // Four pages left at their measured 1 s, sure; the insights call's 10 s, a guess: 4 + 5-20 s.
    const s = p.snapshot();
    expect(s.eta_s).toBe(14);
    expect(s.eta_range_s).toEqual([9, 24]);
  });
});

describe('WorkProgress learns from its own calls (issue 39)', () => {
  /**
   * A one-slot model of fixed cost (300 prompt tokens/s, 25 reply tokens/s) whose replies vary
   * from 20 to 500 tokens; the work's calls tell their facts as ScheduledModel does.
   */
  function run(parts: number, seed: number) {
    const c = clock();
    const estimator = new CallEstimator();
    // Wired as plugins/ai.ts wires the product's.
    const p = new WorkProgress(estimator.workEstimates(1), c.now);
    let x = seed;
    const random = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const readings: { at: number; eta: number; range?: [number, number]; heading?: string }[] = [];
    const read = () => {
      const s = p.snapshot();
      if (s.eta_s !== null)
        readings.push({ at: c.now(), eta: s.eta_s, range: s.eta_range_s, heading: s.heading });
    };
    p.stage('summarizing', parts);
    for (let i = 0; i < parts; i++) {
      const promptTokens = 1_500 + Math.round(500 * random());
      const replyTokens = 20 + Math.round(480 * random());
      const firstPieceMs = (promptTokens / 300) * 1000;
      const generationMs = (replyTokens / 25) * 1000;
      p.callStarted(estimator.estimateMs(promptTokens, 512), { promptTokens, maxTokens: 512 });
      read();
      for (let t = 0; t < firstPieceMs + generationMs; t += 2_000) {
        c.advance(Math.min(2_000, firstPieceMs + generationMs - t));
        read();
      }
      p.callEnded(firstPieceMs + generationMs, { replyTokens, firstPieceMs });
      estimator.observe({ promptTokens, replyTokens, firstPieceMs, generationMs, maxTokens: 512 });
      p.partDone();
      read();
    }
    return { end: c.now(), readings };
  }

  it('keeps every time left after the first tenth within 0.5x-2x of the time really left', () => {
    for (const seed of [1, 7, 42, 1234]) {
      const { end, readings } = run(28, seed);
      const late = readings.filter((r) => r.at >= end / 10 && end - r.at >= 2_000);
      expect(late.length).toBeGreaterThan(50);
      for (const r of late) {
        const truth = (end - r.at) / 1000;
        // The last reply's length is unknown till it ends: "about 16 s" for 8 s is no betrayal.
        if (Math.abs(r.eta - truth) <= 10) continue;
        expect(r.eta / truth, `seed ${seed} at ${r.at} ms`).toBeGreaterThanOrEqual(0.5);
        expect(r.eta / truth, `seed ${seed} at ${r.at} ms`).toBeLessThanOrEqual(2);
      }
    }
  });

  it('shows a range while little is measured, one figure after, and never jumps tenfold', () => {
    const { readings } = run(28, 3);
    expect(readings[0]!.range).toBeDefined();
    const [low, high] = readings[0]!.range!;
    expect(low).toBeLessThan(readings[0]!.eta);
    expect(high).toBeGreaterThan(readings[0]!.eta);
    expect(readings.at(-2)!.range).toBeUndefined();
    for (let i = 1; i < readings.length; i++) {
      expect(readings[i]!.eta).toBeLessThanOrEqual(Math.max(10, readings[i - 1]!.eta * 3));
    }
  });

  it('says what happens now in its heading', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    expect(p.snapshot().heading).toBe('Starting');
    p.stage('reading');
    expect(p.snapshot().heading).toBe('Reading the file');
    p.stage('summarizing', 28);
    for (let i = 0; i < 3; i++) p.partDone();
    expect(p.snapshot().heading).toBe('Summarizing part 4 of 28');
    p.setQueuedAhead(2, 10_000);
    expect(p.snapshot().heading).toBe('Summarizing: waiting to start part 4 of 28');
    p.setQueuedAhead(0, null);
    p.stage('combining');
    expect(p.snapshot().heading).toBe('Combining the summaries part 4 of 28');
  });

  it("slows down, not stops at 1 s, while a lone call runs past the model's guess", () => {
    // A site audit's insights: its one call, guessed at 10 s, likely at most 18 s, takes 14 s.
    const c = clock();
    const estimates = {
      callMs: () => null,
      capacity: 1,
      estimateMs: () => 10_000,
      likelyLongestMs: () => 18_000,
    };
    const p = new WorkProgress(estimates, c.now);
    p.stage('insights', 1, { count: 1, promptTokens: 1_500, maxTokens: 600 });
    p.callStarted(10_000, { promptTokens: 1_500, maxTokens: 600 });
    const shown: number[] = [];
    for (let s = 0; s < 14; s++) {
      shown.push(p.snapshot().eta_s!);
      c.advance(1_000);
    }
    // Down with the clock while the guess holds, then at half the pace: never a second left
    // while seconds remain (it said 1 s for the last 4 s before).
    expect(shown).toEqual([10, 9, 8, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3]);
    for (const [s, eta] of shown.entries()) {
      const truth = 14 - s;
      if (truth < 2) continue; // the last second: any figure is a few times off
      expect(eta / truth).toBeGreaterThanOrEqual(0.5);
      expect(eta / truth).toBeLessThanOrEqual(2);
    }
  });

  it('climbs while a call runs longer than thought, at the pace the overrun implies', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('translating', 4);
    p.callStarted(10_000, { promptTokens: 1_000, maxTokens: 1_000 });
    expect(p.snapshot().eta_s).toBe(40);
    const during: number[] = [];
    for (let s = 0; s < 8; s++) {
      c.advance(5_000); // the first part takes 40 s, four times its estimate
      during.push(p.snapshot().eta_s!);
    }
    // Down with the clock till the estimate runs out, then up: each part is at least that long.
    expect(during).toEqual([35, 30, 45, 60, 75, 90, 105, 120]);
    p.callEnded(40_000, { replyTokens: 900, firstPieceMs: 4_000 });
    p.partDone();
    expect(p.snapshot().eta_s).toBe(120); // 3 parts of 40 s: the truth
  });

  it('at most triples the figure when a part ends', () => {
    const c = clock();
    const p = new WorkProgress({ callMs: () => null, capacity: 1 }, c.now);
    p.stage('translating', 11);
    p.callStarted(1_000, { promptTokens: 1_000, maxTokens: 1_000 });
    expect(p.snapshot().eta_s).toBe(11);
    c.advance(30_000); // read only when it ends: a guess of 1 s, a measure of 30 s
    p.callEnded(30_000, { replyTokens: 900, firstPieceMs: 3_000 });
    p.partDone();
    // The truth is 300 s: the figure climbs from 11 s, at most threefold at each reading…
    const shown = [11, p.snapshot().eta_s!];
    for (let i = 0; i < 3; i++) {
      p.callStarted(1_000, { promptTokens: 1_000, maxTokens: 1_000 });
      c.advance(30_000);
      p.callEnded(30_000, { replyTokens: 900, firstPieceMs: 3_000 });
      p.partDone();
      shown.push(p.snapshot().eta_s!);
    }
    for (let i = 1; i < shown.length; i++)
      expect(shown[i]).toBeLessThanOrEqual(3 * Math.max(shown[i - 1]!, 10));
    // …and reaches the truth (parts left × 30 s) within a few parts.
    expect(shown).toEqual([11, 33, 99, 240, 210]);
  });
});

describe('WorkPace', () => {
  it("predicts a call from this work's prompt time per token and its reply time", () => {
    const pace = new WorkPace();
    expect(pace.callMs()).toBeNull();
    const facts = { promptTokens: 1_000, maxTokens: 512 };
    pace.callStarted(facts);
    pace.callEnded(facts, 5_000, { replyTokens: 100, firstPieceMs: 1_000 });
    pace.callStarted({ promptTokens: 3_000, maxTokens: 512 });
    pace.callEnded({ promptTokens: 3_000, maxTokens: 512 }, 9_000, {
      replyTokens: 300,
      firstPieceMs: 3_000,
    });
    // 1 ms per prompt token; replies took 4 s and 6 s: 5 s on average.
    expect(pace.callMs(2_000)).toBe(2_000 + 5_000);
    expect(pace.callMs()).toBe(2_000 + 5_000); // the average prompt, 2,000 tokens
    expect(pace.averageReplyTokens()).toBe(200);
    expect(pace.finished).toBe(2);
  });
});

describe('CallEstimator', () => {
  it('puts the likely longest call at twice the average reply share, within the allowance', () => {
    const estimator = new CallEstimator();
    // Before any call: 300 prompt tokens/s, 25 reply tokens/s, replies half their allowance.
    expect(estimator.estimateMs(300, 100)).toBe(1_000 + 2_000);
    expect(estimator.likelyLongestMs(300, 100)).toBe(1_000 + 4_000); // the whole allowance
    // Replies of a tenth of their allowance: likely at most a fifth of it.
    estimator.observe({
      promptTokens: 300,
      replyTokens: 10,
      firstPieceMs: 1_000,
      generationMs: 400,
      maxTokens: 100,
    });
    expect(estimator.likelyLongestMs(300, 100)).toBeCloseTo(1_000 + 800);
  });
});
