/**
 * Whether a failure is a write that found no room: a full file system or quota (ENOSPC,
 * EDQUOT), a full SQLite database or disk (SQLITE_FULL), PostgreSQL's disk_full (53100).
 * Looks through `cause` too, where a layer wrapped the original error.
 */
const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

export function isOutOfSpace(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && OUT_OF_SPACE_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
