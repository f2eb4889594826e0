import { z } from 'zod';

/**
 * The language model's state and the progress of long AI work.
 *
 * GET /api/ai/status (auth) → AiStatus
 *   state        downloading (first start fetches the model), loading (into memory), ready,
 *                unavailable, or unreachable (the model server of AI_BASE_URL does not answer its
 *                health check, GET /models, retried with backoff).
 *   reason       what the user can do, in their words ("The assistant is unavailable right now;
 *                the operator has been told."): never a path, a setting or an internal address
 *                (those are in the log and on the Admin page); null when ready.
 *   progress     percent 0–100 of the download while downloading; null otherwise.
 *   last_ok_at   when the model server last answered (openai provider); null: never, or embedded.
 *   queued       model calls waiting for a free slot of the model right now.
 *   While the model is loading, AI calls wait for it (up to AI_LOAD_WAIT_MS); while it downloads
 *   they answer 503 `No language model is available: the model is downloading (45%)…` with a
 *   `Retry-After` header; while it is unavailable or unreachable they answer 503 at once with
 *   MODEL_UNAVAILABLE_MESSAGE.
 *
 * Progress of long work: every document action (summarize, translate, translate_stored_file,
 * askQuestions, proofread, bulk-sentiment-analysis) and page analysis called with
 * `Accept: text/event-stream` answers a stream of server-sent events instead of one JSON body:
 *   event: progress  data: ProgressEvent                    (first within a moment, then as work advances)
 *   event: partial   data: <the endpoint's JSON body so far> (proofread's findings, before the
 *                    model's notes; askQuestions' answer so far, again each time it grows)
 *   event: done      data: <the endpoint's usual JSON body> (last, on success)
 *   event: error     data: {"error": "<message>", "status": <http status>}   (last, on failure)
 * Errors found before the work starts (400 bad fields, 401, 404, 503) are ordinary JSON answers.
 * Closing the connection cancels the work: its queued and running model calls stop.
 * Without that header the endpoints answer exactly as before.
 */
export const AI_STATES = ['downloading', 'loading', 'ready', 'unavailable', 'unreachable'] as const;
export const aiStateSchema = z.enum(AI_STATES);
export type AiState = z.infer<typeof aiStateSchema>;

export const aiStatusSchema = z.object({
  state: aiStateSchema,
  progress: z.number().min(0).max(100).nullable(),
  name: z.string(),
  reason: z.string().nullable(),
  queued: z.number().int().min(0),
  last_ok_at: z.string().nullable(),
});
export type AiStatus = z.infer<typeof aiStatusSchema>;

export const PROGRESS_STREAM_EVENTS = {
  progress: 'progress',
  partial: 'partial',
  done: 'done',
  error: 'error',
} as const;

export const progressEventSchema = z.object({
  /** What the work is doing now, e.g. `reading`, `summarizing`, `combining`, `auditing`. */
  stage: z.string(),
  /**
   * What happens now, as the card's heading: "Summarizing part 4 of 28", "Translating: waiting
   * to start part 2 of 6", "Reading the file". (Servers before it sent only `stage`.)
   */
  heading: z.string().optional(),
  /** Parts finished and parts in all (model calls for documents, steps for page analysis). */
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  /** Other model calls that will run before this work's next one. */
  queued_ahead: z.number().int().min(0),
  /**
   * Estimated seconds until the work is finished; null before anything was measured. It counts
   * down with the clock and goes up only by as much as the queue in front of the work grew.
   */
  eta_s: z.number().min(0).nullable(),
  /**
   * While little of the work is measured (its first calls): the seconds left may be anywhere in
   * this range around `eta_s`, and the card shows it ("about 2-6 min left").
   */
  eta_range_s: z.tuple([z.number().min(0), z.number().min(0)]).optional(),
  /** Calls of this work running now: 0 while it waits for others' calls. */
  running: z.number().int().min(0).optional(),
  /** While it waits: the estimated seconds until its next call starts. */
  queue_wait_s: z.number().min(0).nullable().optional(),
  /**
   * The work's first results, once it has them (proofread: the findings, before the model's
   * notes; askQuestions: the answer so far). In a job's stored progress (GET /api/jobs/:id); a
   * stream sends each new one as its own `partial` event, and leaves it out of `progress` events.
   */
  partial: z.unknown().optional(),
});
export type ProgressEvent = z.infer<typeof progressEventSchema>;

export const streamErrorEventSchema = z.object({ error: z.string(), status: z.number().int() });
export type StreamErrorEvent = z.infer<typeof streamErrorEventSchema>;
