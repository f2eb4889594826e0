/**
 * Whether an error is PostgreSQL's SQLSTATE class 22, "data exception": the query carried a value
 * the database cannot take (22003 a number out of range, 22021 a NUL or a bad byte, 22P02 text
 * that is not a number, 22P05 a character its encoding lacks, 22007 a bad date...). That is the
 * request's fault, not the server's: the error handler answers 400, not 500. The contract refuses
 * such values first; this catches the ones it does not know about.
 */
export function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // SQLite's codes are words (SQLITE_…) and Node's letters (ENOSPC): only PostgreSQL's are these.
  return err instanceof Error && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}
