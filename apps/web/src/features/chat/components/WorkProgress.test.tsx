import { describe, expect, it } from 'vitest';
import { describeProgress, describeQueue } from './WorkProgress';

const p = (over: Partial<Parameters<typeof describeProgress>[0]>) => ({
  stage: 'summarizing',
  done: 0,
  total: 0,
  queued_ahead: 0,
  eta_s: null,
  ...over,
});

describe('the text of a progress bar', () => {
  it('names the part being worked on and the time left', () => {
    expect(describeProgress(p({ done: 11, total: 87, eta_s: 170 }))).toBe(
      'Summarizing: part 12 of 87, about 3 min left',
    );
    expect(describeProgress(p({ done: 1, total: 4, eta_s: 12 }))).toBe(
      'Summarizing: part 2 of 4, about 12 s left',
    );
    expect(describeProgress(p({ done: 3, total: 300, eta_s: 7300 }))).toBe(
      'Summarizing: part 4 of 300, about 2 h 2 min left',
    );
  });

  it('says only the stage before the parts are known, and no time it cannot estimate', () => {
    expect(describeProgress(p({ stage: 'reading' }))).toBe('Reading…');
    expect(describeProgress(p({ done: 0, total: 5 }))).toBe('Summarizing: part 1 of 5');
    expect(describeProgress(p({ done: 5, total: 5, eta_s: 0 }))).toBe('Summarizing: part 5 of 5');
  });

  it("leads with the server's heading, and gives a range while little is measured", () => {
    const h = { heading: 'Summarizing part 4 of 28' };
    expect(describeProgress(p({ ...h, done: 3, total: 28, eta_s: 600 }))).toBe(
      'Summarizing part 4 of 28, about 10 min left',
    );
    expect(
      describeProgress(p({ ...h, done: 3, total: 28, eta_s: 240, eta_range_s: [120, 360] })),
    ).toBe('Summarizing part 4 of 28, about 2-6 min left');
    expect(
      describeProgress(p({ ...h, done: 3, total: 28, eta_s: 60, eta_range_s: [30, 90] }), 10),
    ).toBe('Summarizing part 4 of 28, about 20 s-1 min left');
    expect(describeProgress(p({ stage: 'reading', heading: 'Reading the file' }))).toBe(
      'Reading the file…',
    );
  });

  it('tells the one who waits how many requests go before theirs, and about how long', () => {
    expect(describeQueue(p({ queued_ahead: 0 }))).toBeNull();
    expect(describeQueue(p({ queued_ahead: 1, running: 0 }))).toBe('1 request goes before yours');
    expect(describeQueue(p({ queued_ahead: 2, running: 0, queue_wait_s: 40 }))).toBe(
      '2 requests go before yours, about 40 s',
    );
    // Counting down between events.
    expect(describeQueue(p({ queued_ahead: 2, running: 0, queue_wait_s: 40 }), 15)).toBe(
      '2 requests go before yours, about 25 s',
    );
    // Work whose call runs waits for nobody.
    expect(describeQueue(p({ queued_ahead: 1, running: 1 }))).toBeNull();
  });

  it('shows the part running, or the part waiting to start, with the time counting down', () => {
    expect(describeProgress(p({ done: 0, total: 1, queued_ahead: 2, running: 0 }))).toBe(
      'Summarizing: waiting to start part 1 of 1',
    );
    expect(describeProgress(p({ done: 0, total: 6, running: 1, eta_s: 120 }), 50)).toBe(
      'Summarizing: part 1 of 6, about 1 min left',
    );
    expect(describeProgress(p({ done: 0, total: 6, running: 1, eta_s: 40 }), 23)).toBe(
      'Summarizing: part 1 of 6, about 17 s left',
    );
  });
});
