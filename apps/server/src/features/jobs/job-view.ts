import type { Job, ProgressEvent, StreamErrorEvent } from '@inkwell/contract';
import type { JobRow } from './jobs.repo';

/** A job row as the API shows it (contract jobs.ts). */
export function toJobView(row: JobRow): Job {
  const input = JSON.parse(row.input) as { about?: Job['about'] };
  return {
    id: row.id,
    kind: row.kind as Job['kind'],
    state: row.state,
    about: input.about ?? {},
    progress: row.progress ? (JSON.parse(row.progress) as ProgressEvent) : null,
    result: row.result ? (JSON.parse(row.result) as unknown) : null,
    error: row.error ? (JSON.parse(row.error) as StreamErrorEvent) : null,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}
