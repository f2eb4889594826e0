import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askFilesRequestSchema, idParamsSchema, MAX_ID, withoutNul } from './index';

describe('ids and stored text', () => {
  it('takes ids from 1 to the largest a PostgreSQL serial holds, as numbers or text', () => {
    const ok = (id: unknown) => idParamsSchema.safeParse({ id }).success;
    expect([1, '1', MAX_ID, String(MAX_ID)].map(ok)).toEqual([true, true, true, true]);
    const refused = [0, -1, 1.5, MAX_ID + 1, '2147483648', 2 ** 53, '1e99', 'abc', ''];
    expect(refused.filter(ok)).toEqual([]);
  });

  it('reads an empty file_ids list as no list (every file), as an empty form field', () => {
    const ask = (file_ids: unknown) =>
      askFilesRequestSchema.parse({ text: 'q', file_ids }).file_ids;
    expect([ask([]), ask(''), ask(undefined)]).toEqual([undefined, undefined, undefined]);
    expect(ask([3, 4])).toEqual([3, 4]);
    expect(askFilesRequestSchema.safeParse({ text: 'q', file_ids: [MAX_ID + 1] }).success).toBe(
      false,
    );
  });

  it('refuses NUL in text that is stored, naming the field as its other messages do', () => {
    const name = z.string().check(withoutNul('Name'));
    expect(name.safeParse('Ada\u0000').error?.issues[0]?.message).toBe(
      'Name must not contain the NUL character (U+0000)',
    );
    expect(name.safeParse('Ada \u00a0\u200b').success).toBe(true);
  });
});
