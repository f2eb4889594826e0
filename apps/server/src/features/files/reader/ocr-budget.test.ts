import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OcrBudget } from './ocr-budget';

describe('OcrBudget (OCR pages only while the time limit leaves room)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const page = (ms: number) => () =>
    new Promise<string>((resolve) => setTimeout(() => resolve('text'), ms));

  it('stops starting pages once the slowest page, twice, no longer fits', async () => {
    const budget = new OcrBudget(10_000, 1000);
    const first = budget.run(page(2000));
    await vi.advanceTimersByTimeAsync(2000); // 8 s left, slowest 2 s
    expect(await first).toBe('text');
    expect(budget.allows()).toBe(true); // 2 + 2 + 1 < 8
    const second = budget.run(page(3000));
    await vi.advanceTimersByTimeAsync(3000); // 5 s left, slowest 3 s
    expect(await second).toBe('text');
    expect(budget.allows()).toBe(false); // 3 + 3 + 1 > 5
    expect(budget.spent).toBe(true);
  });

  it('gives a page up at the deadline less the margin', async () => {
    const budget = new OcrBudget(10_000, 1000);
    const slow = budget.run(page(60_000));
    await vi.advanceTimersByTimeAsync(9000);
    expect(await slow).toBeUndefined();
    expect(budget.spent).toBe(true);
    expect(budget.allows()).toBe(false);
  });
});
