/**
 * Whether an error says the database could not serve for a moment (it restarted, the connection
 * was cut, it was busy or locked), as opposed to a query that is wrong: the same work tried again
 * a little later can succeed. Used to try a job's work again rather than fail it
 * (features/jobs/job-runner.ts).
 */
const POSTGRES_CODES = new Set([
  // Class 08: connection exception.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // Shut down by an administrator or a crash, or not accepting connections yet (starting up).
  '57P01',
  '57P02',
  '57P03',
  // Too many connections; a transaction that lost a race (serialization failure, deadlock).
  '53300',
  '40001',
  '40P01',
]);
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|PROTOCOL)/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** node-postgres says these in words, without a code. */
const POSTGRES_CLIENT_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

export function isTransientDatabaseError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (POSTGRES_CODES.has(code) || SOCKET_CODES.has(code) || SQLITE_CODES.test(code)) return true;
  }
  return POSTGRES_CLIENT_MESSAGES.some((m) => err.message.includes(m));
}
