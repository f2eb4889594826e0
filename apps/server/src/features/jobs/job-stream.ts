import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  JOB_STREAM_EVENT,
  PROGRESS_STREAM_EVENTS,
  type ProgressEvent,
  type StreamErrorEvent,
} from '@inkwell/contract';
import { abortOnDisconnect } from '../../lib/abort-on-disconnect';
import { workHeading } from '../ai';
import { HttpError } from '../../lib/http-error';
import { SseWriter, wantsEventStream } from '../../lib/sse-writer';
import type { JobRow } from './jobs.repo';
import type { Jobs } from './jobs.service';

/**
 * Answers a request with a job's outcome. With `Accept: text/event-stream`: `job` (its id), then
 * `progress` events as it advances, then `done` (the result) or `error` (contract ai.ts, jobs.ts).
 * Otherwise the result itself, or the job's error with its status, as the endpoint always
 * answered. A client that goes away stops following the job; the job goes on.
 */
const MIN_EVENT_GAP_MS = 250;
/** An event at least this often, so proxies keep the connection and the estimate stays fresh. */
const HEARTBEAT_MS = 5000;

export const CANCELLED_MESSAGE = 'The work was cancelled.';

export async function answerJob(
  jobs: Jobs,
  request: FastifyRequest,
  reply: FastifyReply,
  jobId: string,
): Promise<unknown> {
  reply.header('x-job-id', jobId);
  if (wantsEventStream(request)) return streamJob(jobs, reply, jobId);
  return outcome(await jobs.watch(jobId, () => {}, abortOnDisconnect(reply)));
}

/** The job's events, whatever the request asked for (GET /api/jobs/:id/events). */
export async function streamJob(
  jobs: Jobs,
  reply: FastifyReply,
  jobId: string,
): Promise<FastifyReply> {
  const gone = abortOnDisconnect(reply);
  const sse = new SseWriter();
  sse.open(reply);
  void sse.send(JOB_STREAM_EVENT, { id: jobId });
  const events = throttledProgress(sse);
  // Something at once, even while the job waits for a process to take it.
  events.push({
    stage: 'queued',
    heading: workHeading('queued', 0, 0, false),
    done: 0,
    total: 0,
    queued_ahead: 0,
    eta_s: null,
  });
  try {
    const row = await jobs.watch(jobId, events.push, gone);
    events.stop();
    try {
      await sse.send(PROGRESS_STREAM_EVENTS.done, outcome(row));
    } catch (err) {
      const e = err as HttpError;
      await sse.send(PROGRESS_STREAM_EVENTS.error, { error: e.message, status: e.statusCode });
    }
  } catch {
    // The client went away: the job goes on without it.
  } finally {
    events.stop();
    sse.end();
  }
  return reply;
}

/** The answer of an ended job: its result, or its failure as the error it was. */
export function outcome(row: JobRow): unknown {
  if (row.state === 'done') return JSON.parse(row.result ?? 'null') as unknown;
  if (row.state === 'cancelled') throw new HttpError(409, CANCELLED_MESSAGE);
  const { error, status } = JSON.parse(row.error ?? '{}') as Partial<StreamErrorEvent>;
  throw new HttpError(status ?? 500, error ?? 'The work failed.');
}

/**
 * Progress events at most every MIN_EVENT_GAP_MS (the last state always gets out), and a
 * heartbeat. A partial result goes as its own event the moment it is there, and again each time
 * it grows (a question's answer streaming).
 */
function throttledProgress(sse: SseWriter) {
  let latest: ProgressEvent | undefined;
  let lastSent = 0;
  let pending: NodeJS.Timeout | undefined;
  let partialSent: { value: unknown; json: string } | undefined;
  const send = () => {
    clearTimeout(pending);
    pending = undefined;
    if (!latest) return;
    lastSent = Date.now();
    void sse.send(PROGRESS_STREAM_EVENTS.progress, latest);
  };
  const heartbeat = setInterval(send, HEARTBEAT_MS);
  return {
    push({ partial, ...progress }: ProgressEvent) {
      if (partial !== undefined && partial !== partialSent?.value) {
        const json = JSON.stringify(partial);
        if (json !== partialSent?.json) void sse.send(PROGRESS_STREAM_EVENTS.partial, partial);
        partialSent = { value: partial, json };
      }
      latest = progress;
      if (pending) return;
      const gap = Date.now() - lastSent;
      if (gap >= MIN_EVENT_GAP_MS) send();
      else pending = setTimeout(send, MIN_EVENT_GAP_MS - gap);
    },
    stop() {
      clearInterval(heartbeat);
      clearTimeout(pending);
      pending = undefined;
    },
  };
}
