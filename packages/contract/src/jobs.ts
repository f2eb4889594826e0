import { z } from 'zod';
import { progressEventSchema, streamErrorEventSchema } from './ai';

/**
 * Long AI work runs as jobs: every document action (summarize, proofread, sentiment, translate
 * of a file, askQuestions) and page analysis. The endpoints of spec §7 create the job and answer
 * its result as before; the job goes on when the client goes away, its result is kept 24 h, and
 * a job interrupted by a crash resumes on another process without redoing its finished parts.
 * The job's id comes in the `X-Job-Id` header, and first in a stream as `event: job`.
 *
 * GET    /api/jobs              auth → JobList: the user's jobs of the last 24 h, newest first, a
 *                                      page at a time (`limit`, default 50; `cursor`: the last
 *                                      page's `next_cursor`, null after the last), without results
 * GET    /api/jobs/:id               → Job, with its result
 * GET    /api/jobs/:id/events        → server-sent events as in ai.ts (`progress`… then `done`
 *                                      with the result or `error`); at once for an ended job
 * DELETE /api/jobs/:id               → Job (cancelled; its remaining model calls stop)
 * A user's job needs that user's token (404 otherwise). An anonymous page analysis (spec §6: sent
 * without a token) is reached with its id alone: the id is a random UUID, known only to whoever
 * started the analysis.
 */
export const JOB_KINDS = [
  'summarize',
  'proofread',
  'sentiment',
  'translate',
  'ask',
  'ask_files',
  'accessibility',
  'seo',
  'site',
  'ask_files',
] as const;
export const jobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof jobKindSchema>;

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const jobStateSchema = z.enum(JOB_STATES);
export type JobState = z.infer<typeof jobStateSchema>;

export const jobSchema = z.object({
  id: z.string(),
  kind: jobKindSchema,
  state: jobStateSchema,
  /** What the job works on, for showing it again after a reload. */
  about: z.object({
    file_name: z.string().optional(),
    target_language: z.string().optional(),
    url: z.string().optional(),
    question: z.string().optional(),
    /** A typed text's translation: the text's opening (up to 200 characters). */
    text: z.string().optional(),
  }),
  progress: progressEventSchema.nullable(),
  /** The endpoint's answer, once done. */
  result: z.unknown().nullable(),
  error: streamErrorEventSchema.nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

/**
 * A job as a list shows it: all but its result, which can be tens of MB (a translated 10 MB
 * file); GET /api/jobs/:id answers it, one job at a time.
 */
export const jobSummarySchema = jobSchema.omit({ result: true });
export type JobSummary = z.infer<typeof jobSummarySchema>;

/** Jobs in a page of GET /api/jobs, unless `limit` asks for fewer (at most JOB_PAGE_MAX). */
export const JOB_PAGE_SIZE = 50;
export const JOB_PAGE_MAX = 200;

export const jobListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(JOB_PAGE_MAX).default(JOB_PAGE_SIZE),
  /** Where the page starts: the `next_cursor` of the page before (opaque). */
  cursor: z.string().min(1).max(200).optional(),
});
export type JobListQuery = z.input<typeof jobListQuerySchema>;

export const jobListSchema = z.object({
  jobs: z.array(jobSummarySchema),
  /** The cursor of the next page; null when this page is the last. */
  next_cursor: z.string().nullable(),
});
export type JobList = z.infer<typeof jobListSchema>;

/** The first event of a job's stream. */
export const JOB_STREAM_EVENT = 'job';
export const jobEventSchema = z.object({ id: z.string() });
