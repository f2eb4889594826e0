import { z } from 'zod';
import { CHAT_MAX_CHARS } from './constants';
import { withoutNul } from './stored-text';

/**
 * Schemas of the chat endpoints (spec §1, §4, §5, §7).
 *
 * POST /api/chat            multipart (or JSON, or url-encoded) field `text`; auth.
 *                           → 200 ChatResponse; 400 bad text; 429 at the daily prompt cap (model
 *                           not called); 503 when no model is available (`No language model is
 *                           available: …`); 502/504 when the AI server fails or times out.
 *   With `Accept: text/event-stream` the answer is a stream of server-sent events instead:
 *                           event: token  data: {"text": "<next piece of the reply>"}   (0..n times)
 *                           event: done   data: ChatResponse                           (last, on success)
 *                           event: error  data: {"error": "<message>", "status": <http status>}
 *                                                                                     (last, on failure)
 *   Errors found before generation starts (400, 401, 429, 503) are ordinary JSON answers with that
 *   status, not a stream. The concatenated `token` texts equal `done.response`. The stream also
 *   sends `event: reply  data: {"id": <the reply's message id>}` once the exchange is stored
 *   (right after generation starts; possibly after the first tokens).
 *   The question and its reply are stored as the reply starts (the reply marked `streaming`).
 *   Closing the connection does NOT stop the generation: the reply goes on to its end (within
 *   the usual limits) and is stored; the page that comes back follows it with
 *   GET /api/chat/replies/:id/events. Only Stop (below) stops it. A reply that was stopped, or
 *   cut short by a failure or a server stopping, is kept with what it had, `stopped: true`.
 *   The prompt counter counts a reply once its first token was sent (a reply stopped or failed
 *   before any token gives its prompt back; one that failed before any token is not stored).
 * GET  /api/chat/replies/:id/events  auth → server-sent events of one reply of the user, from its
 *                           start: `token` (first the whole text so far, then each next piece),
 *                           then `done` (ChatResponse, `stopped: true` when it was stopped) or
 *                           `error`. For an ended reply: its text and `done` at once. Works on
 *                           any app server (a reply running on another one is followed through
 *                           the database). 404 when the id is not one of the user's replies.
 * POST /api/chat/replies/:id/stop    auth → { message }: stops the reply where it runs (any app
 *                           server), once it is stored as stopped with what it had. An ended
 *                           reply is left as it is. 404 as above.
 * GET  /api/chat/history    → ChatHistoryResponse: the stored conversation, oldest first, and the counter.
 * GET  /api/chat/usage      → PromptUsage: today's counter (UTC day).
 * POST /api/clearAllHistories → { message }: empties the user's conversation (not the counter),
 *                           starts a new one (`started_at`) and cancels the user's running jobs.
 *
 * Replies are plain text / Markdown; render them as text, never as HTML.
 */

export const chatRequestSchema = z.object({
  text: z
    .string({ error: 'text is required' })
    .trim()
    .min(1, 'text must not be empty')
    .max(CHAT_MAX_CHARS, `text must be at most ${CHAT_MAX_CHARS} characters`)
    .check(withoutNul('text')),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The prompt counter: `current` of `max` successful replies today. */
export const promptUsageSchema = z.object({
  current: z.number().int().min(0),
  max: z.number().int().min(1),
});
export type PromptUsage = z.infer<typeof promptUsageSchema>;

export const chatResponseSchema = promptUsageSchema.extend({
  response: z.string(),
  /** The reply was stopped (Stop, a failure after its first token, a server stopping). */
  stopped: z.boolean().optional(),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

export const chatRoleSchema = z.enum(['user', 'assistant']);
export type ChatRole = z.infer<typeof chatRoleSchema>;

export const chatMessageSchema = z.object({
  id: z.number().int(),
  role: chatRoleSchema,
  text: z.string(),
  created_at: z.string(),
  /** A reply cut short (Stop, a failure, a server stopping): `text` is what it had. */
  stopped: z.boolean().optional(),
  /** A reply still being generated: follow it with GET /api/chat/replies/:id/events. */
  streaming: z.boolean().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatHistoryResponseSchema = promptUsageSchema.extend({
  messages: z.array(chatMessageSchema),
  /**
   * When this conversation began (the last New Topic; null: never cleared). The user's jobs
   * (GET /api/jobs) created since then belong to it and are shown in it by time. Absent from a
   * server older than this field (a rolling upgrade): read as null, so the history still shows.
   */
  started_at: z.string().nullish(),
});
export type ChatHistoryResponse = z.infer<typeof chatHistoryResponseSchema>;

/** Names of the server-sent events of a streamed chat reply. */
export const CHAT_STREAM_EVENTS = {
  reply: 'reply',
  token: 'token',
  done: 'done',
  error: 'error',
} as const;

export const chatReplyEventSchema = z.object({ id: z.number().int() });
export type ChatReplyEvent = z.infer<typeof chatReplyEventSchema>;

export const chatTokenEventSchema = z.object({ text: z.string() });
export type ChatTokenEvent = z.infer<typeof chatTokenEventSchema>;
export const chatDoneEventSchema = chatResponseSchema;
export type ChatDoneEvent = ChatResponse;
export const chatErrorEventSchema = z.object({ error: z.string(), status: z.number().int() });
export type ChatErrorEvent = z.infer<typeof chatErrorEventSchema>;
