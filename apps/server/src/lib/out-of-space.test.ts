import { describe, expect, it } from 'vitest';
import { isOutOfSpace } from './out-of-space';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('isOutOfSpace', () => {
  it('knows a full disk, quota, SQLite database and PostgreSQL server', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'])
      expect(isOutOfSpace(coded(code)), code).toBe(true);
  });

  it('looks through the causes a layer wrapped it in', () => {
    const wrapped = new Error('upload failed', {
      cause: new Error('put', { cause: coded('ENOSPC') }),
    });
    expect(isOutOfSpace(wrapped)).toBe(true);
  });

  it('is not fooled by other failures', () => {
    for (const err of [
      coded('EIO'),
      coded('SQLITE_BUSY'),
      coded('53300'),
      new Error('x'),
      null,
      'ENOSPC',
    ])
      expect(isOutOfSpace(err), String(err)).toBe(false);
  });
});
