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

  it('says how many requests of others go first', () => {
    expect(describeQueue(p({ queued_ahead: 0 }))).toBeNull();
    expect(describeQueue(p({ queued_ahead: 1 }))).toBe('1 request of others goes first');
    expect(describeQueue(p({ queued_ahead: 3 }))).toBe('3 requests of others go first');
  });
});
