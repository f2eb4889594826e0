import type { Job, JobSummary, ProgressEvent, StreamErrorEvent } from '@inkwell/contract';
import { z } from 'zod';
import { badRequest } from '../../lib/http-error';
import type { JobListPosition, JobRow, JobSummaryRow } from './jobs.repo';

/** A job row as lists show it (contract jobs.ts JobSummary): everything but its result. */
export function toJobSummary(row: JobSummaryRow): JobSummary {
  const input = JSON.parse(row.input) as { about?: Job['about'] };
  const progress = row.progress ? (JSON.parse(row.progress) as ProgressEvent) : null;
  // An ended job's result says all its partial result did, and more.
  if (progress && row.state !== 'running' && row.state !== 'queued') delete progress.partial;
  return {
    id: row.id,
    kind: row.kind as Job['kind'],
    state: row.state,
    about: input.about ?? {},
    progress,
    error: row.error ? (JSON.parse(row.error) as StreamErrorEvent) : null,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

/** A job row as the API shows it one at a time (contract jobs.ts Job), with its result. */
export function toJobView(row: JobRow): Job {
  return {
    ...toJobSummary(row),
    result: row.result ? (JSON.parse(row.result) as unknown) : null,
  };
}

/** The cursor of the page after `last` (GET /api/jobs `next_cursor`): opaque to clients. */
export function jobListCursor(last: JobListPosition): string {
  return Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
}

/**
 * What jobListCursor writes: a creation time as stored (ISO) and a job id (a UUID). Only these
 * reach the query: any other text (a NUL, which PostgreSQL refuses) would fail it with a 500.
 */
const cursorSchema = z.tuple([z.iso.datetime(), z.uuid()]);

/** Where a cursor says the page starts; a 400 for anything this server did not write. */
export function readJobListCursor(cursor: string): JobListPosition {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    // Not JSON: answered below.
  }
  const parsed = cursorSchema.safeParse(value);
  if (parsed.success) return { created_at: parsed.data[0], id: parsed.data[1] };
  throw badRequest('cursor: not a cursor of this list (use next_cursor as it was answered)');
}
