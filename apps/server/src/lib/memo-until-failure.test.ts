import { describe, expect, it } from 'vitest';
import { memoUntilFailure } from './memo-until-failure';

describe('memoUntilFailure', () => {
  it('makes the promise once and shares it', async () => {
    let made = 0;
    const get = memoUntilFailure(async () => ++made);
    expect(await Promise.all([get(), get()])).toEqual([1, 1]);
    expect(await get()).toBe(1);
    expect(made).toBe(1);
  });

  it('forgets a failure: the calls sharing it fail, the next one tries again', async () => {
    let made = 0;
    const get = memoUntilFailure(async () => {
      if (++made === 1) throw new Error('down');
      return made;
    });
    const [a, b] = await Promise.allSettled([get(), get()]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(await get()).toBe(2);
    expect(await get()).toBe(2);
    expect(made).toBe(2);
  });
});
