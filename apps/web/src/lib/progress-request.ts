import {
  JOB_STREAM_EVENT,
  jobEventSchema,
  PROGRESS_STREAM_EVENTS,
  progressEventSchema,
  streamErrorEventSchema,
  type ProgressEvent,
} from '@inkwell/contract';
import {
  ApiError,
  apiRequest,
  reportError,
  type ApiRequestOptions,
  type Parser,
} from './api-client';
import { messageForStatus } from './api-messages';
import { readEvents } from './sse';

/** What a caller of long work passes: where progress goes, the job's id, a signal to stop following. */
export interface ProgressOptions {
  onProgress: (progress: ProgressEvent) => void;
  /** The work's first results, before it ends (proofread's findings, before the model's notes). */
  onPartial?: (partial: unknown) => void;
  /** The server runs the work as a job: its id, to cancel it or follow it again after a reload. */
  onJob?: (id: string) => void;
  signal?: AbortSignal;
}

/**
 * A request for long AI work (a document action, a page analysis) that reports its progress:
 * asked with `Accept: text/event-stream`, the server answers `job` (its id), `progress` events,
 * then `done` with the usual answer or `error` (contract ai.ts, jobs.ts). Failures are the
 * client's ApiError, like any other request.
 */
export async function requestWithProgress<T>(
  path: string,
  options: Omit<ApiRequestOptions<T>, 'responseType' | 'schema' | 'signal'> & { schema: Parser<T> },
  progress: ProgressOptions,
): Promise<T> {
  const { schema, ...rest } = options;
  const response = await apiRequest<Response>(path, {
    ...rest,
    signal: progress.signal,
    responseType: 'response',
    headers: { ...rest.headers, Accept: 'text/event-stream' },
  });
  return readProgress(response, `${rest.method ?? 'POST'} ${path}`, schema, progress);
}

/** GET /api/jobs/:id/events: a job started earlier (before a reload), followed to its end. */
export async function followJob<T>(
  id: string,
  schema: Parser<T>,
  progress: ProgressOptions,
): Promise<T> {
  const path = `jobs/${id}/events`;
  const response = await apiRequest<Response>(path, {
    signal: progress.signal,
    responseType: 'response',
    headers: { Accept: 'text/event-stream' },
  });
  return readProgress(response, `GET ${path}`, schema, progress);
}

async function readProgress<T>(
  response: Response,
  what: string,
  schema: Parser<T>,
  { onProgress, onPartial, onJob, signal }: ProgressOptions,
): Promise<T> {
  const jobId = response.headers.get('X-Job-Id');
  if (jobId) onJob?.(jobId);
  if (
    !(response.headers.get('Content-Type') ?? '').includes('text/event-stream') ||
    !response.body
  ) {
    return schema.parse(await response.json());
  }
  const result = await readEvents(
    response.body,
    (event, payload) => {
      switch (event) {
        case JOB_STREAM_EVENT:
          onJob?.(jobEventSchema.parse(payload).id);
          return undefined;
        case PROGRESS_STREAM_EVENTS.progress:
          onProgress(progressEventSchema.parse(payload));
          return undefined;
        case PROGRESS_STREAM_EVENTS.partial:
          onPartial?.(payload);
          return undefined;
        case PROGRESS_STREAM_EVENTS.done:
          return { value: schema.parse(payload) };
        case PROGRESS_STREAM_EVENTS.error: {
          const { error, status } = streamErrorEventSchema.parse(payload);
          reportError(`${what} failed: ${status} ${error}`);
          throw new ApiError(messageForStatus(status), status, error);
        }
        default:
          return undefined;
      }
    },
    signal,
  );
  if (result) return result.value;
  if (signal?.aborted) throw signal.reason;
  reportError(`${what} failed: the stream ended without an answer`);
  throw new ApiError(messageForStatus(0), 0, 'The answer stream ended early');
}
