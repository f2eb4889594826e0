import { z } from 'zod';
import { CHAT_MAX_CHARS, DOWNLOAD_FORMATS, TRANSLATION_LANGUAGES } from './constants';
import { idTextSchema, MAX_ID } from './ids';

/**
 * Schemas of the AI actions on documents and text (spec §1, §4, §5, §7).
 *
 * Every action is authenticated. The document is either an uploaded multipart `file` or a
 * `file_id` (form field) of a stored file the user owns. Errors are `{ error }`:
 *   400 no file / no extractable text / empty question / language outside the list (no model call);
 *   404 `file_id` not the user's; 503 'No language model is available: …' (not for proofread and
 *   sentiment, which work without a model); 502/504 when the AI server fails or times out.
 *
 * POST /api/summarize                 multipart file | file_id, mode?     → SummarizeResponse
 * POST /api/proofread                 multipart file | file_id, text?     → ProofreadResponse
 * POST /api/bulk-sentiment-analysis   multipart file | file_id, column?   → SentimentResponse
 *                                     (`column`: the table column to score, one of the answer's
 *                                     `column_choices`; an unknown one answers 400)
 * POST /api/askQuestions              multipart file | file_id, text      → AskQuestionsResponse
 * POST /api/translate                 form/JSON text, target_language, source_language?
 *                                     or multipart file, target_language  → TranslateResponse
 * POST /api/translate_stored_file     multipart/form file_id, target_language → TranslateResponse
 * POST /api/download-response         JSON DownloadResponseRequest         → the file (attachment)
 *
 * All texts are plain text / Markdown written by a model: render as text, never as HTML.
 */

/** Case-insensitive match to one of the 27 languages; yields the canonical name. */
export function canonicalLanguage(value: string): (typeof TRANSLATION_LANGUAGES)[number] | null {
  const v = value.trim().toLowerCase();
  return TRANSLATION_LANGUAGES.find((l) => l.toLowerCase() === v) ?? null;
}

const languageSchema = z.string({ error: 'target_language is required' }).transform((v, ctx) => {
  const lang = canonicalLanguage(v);
  if (!lang) {
    ctx.addIssue({
      code: 'custom',
      message: `Unsupported language "${v}". Choose one of: ${TRANSLATION_LANGUAGES.join(', ')}`,
    });
    return z.NEVER;
  }
  return lang;
});

/** `file_id` as sent in a form: a whole number from 1 to MAX_ID, possibly as a string. */
export const documentFileIdSchema = idTextSchema(
  `file_id must be a whole number from 1 to ${MAX_ID}`,
);

export const askQuestionSchema = z
  .string({ error: 'text (the question) is required' })
  .trim()
  .min(1, 'The question must not be empty')
  .max(CHAT_MAX_CHARS, `The question must be at most ${CHAT_MAX_CHARS} characters`);

/** Most characters of typed text accepted for translation (a document goes through `file`). */
export const TRANSLATE_TEXT_MAX_CHARS = 100_000;

export const translateTextRequestSchema = z.object({
  text: z
    .string({ error: 'text is required' })
    .trim()
    .min(1, 'text must not be empty')
    .max(TRANSLATE_TEXT_MAX_CHARS, `text must be at most ${TRANSLATE_TEXT_MAX_CHARS} characters`),
  target_language: languageSchema,
  /** Optional; empty or "auto" means detect. */
  source_language: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v || v.trim() === '' || v.trim().toLowerCase() === 'auto') return undefined;
      const lang = canonicalLanguage(v);
      if (!lang) {
        ctx.addIssue({ code: 'custom', message: `Unsupported source language "${v}"` });
        return z.NEVER;
      }
      return lang;
    }),
});
export type TranslateTextRequest = z.input<typeof translateTextRequestSchema>;

export const translateTargetSchema = z.object({ target_language: languageSchema });

export const translateStoredFileRequestSchema = z.object({
  file_id: documentFileIdSchema,
  target_language: languageSchema,
});
export type TranslateStoredFileRequest = z.input<typeof translateStoredFileRequestSchema>;

/**
 * How much of a document a summary reads. `bounded` (default): a document longer than the
 * server's SUMMARY_MAX_TOKENS is first cut down to the most central sentences of each of its
 * sections (pages, slides, sheets, headed parts), so the model reads a fixed amount of it and
 * every section is represented. `full`: the model reads every word (time grows with the length).
 */
export const SUMMARY_MODES = ['bounded', 'full'] as const;
export type SummaryMode = (typeof SUMMARY_MODES)[number];

/** Form fields of POST /api/summarize besides `file` / `file_id`; an empty `mode` is the default. */
export const summarizeRequestSchema = z.object({
  mode: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(SUMMARY_MODES, { error: 'mode must be bounded or full' }).default('bounded'),
  ),
});
export type SummarizeRequest = z.input<typeof summarizeRequestSchema>;

export const summarizeResponseSchema = z.object({ summary: z.string() });
export type SummarizeResponse = z.infer<typeof summarizeResponseSchema>;

export const askQuestionsResponseSchema = z.object({ response: z.string() });
export type AskQuestionsResponse = z.infer<typeof askQuestionsResponseSchema>;

export const translateResponseSchema = z.object({ translation: z.string() });
export type TranslateResponse = z.infer<typeof translateResponseSchema>;

/**
 * Why the corrected text keeps a finding's words as written: proofreading applies only safe
 * corrections. `all-caps` a word in capitals ("HIGHER EDUCTION LANDSCAPE"); `acronym` an acronym or
 * a mixed-case word, with or without a plural s (IHEP, HBCUs, iPhone); `name` a capitalised word
 * inside a sentence, or one the document also writes so; `document-term` a word the document uses
 * several times as written; `dictionary` a word of the user's personal dictionary; `other-language`
 * a word of another language than the text's (or a text not in English, which Harper checks);
 * `code` part of an address, a file name or code; `uncertain` a word Harper does not know whose
 * suggestion is too far from it to be a typing slip, or a short word a slip cannot be told from an
 * abbreviation ("desc", "vbs"); `no-suggestion` Harper offers no replacement; `overlap` another
 * correction already changes these characters.
 */
export const PROOFREAD_KEPT_REASONS = [
  'all-caps',
  'acronym',
  'name',
  'document-term',
  'dictionary',
  'other-language',
  'code',
  'uncertain',
  'no-suggestion',
  'overlap',
] as const;
export const proofreadKeptReasonSchema = z.enum(PROOFREAD_KEPT_REASONS);
export type ProofreadKeptReason = z.infer<typeof proofreadKeptReasonSchema>;

/** One grammar/spelling finding; `offset`/`length` are UTF-16 positions in the document text. */
export const proofreadIssueSchema = z.object({
  message: z.string(),
  offset: z.number().int().min(0),
  length: z.number().int().min(0),
  suggestions: z.array(z.string()),
  /** Harper's lint kind, e.g. "Spelling", "Grammar", "Agreement". */
  rule: z.string(),
  /** The flagged text as written (what undoing a correction puts back). */
  original: z.string().optional(),
  /** The replacement the corrected text applies; absent when the text is kept as written. */
  correction: z.string().optional(),
  /** Why the corrected text keeps it as written; absent when corrected. */
  kept: proofreadKeptReasonSchema.optional(),
});
export type ProofreadIssue = z.infer<typeof proofreadIssueSchema>;

export const proofreadResponseSchema = z.object({
  /**
   * Model-written explanation (or rewrite when `text` asked for one); a plain summary without a
   * model. Streamed, the findings come first (a `partial` event with `response` the plain summary
   * and `ai` false), before any model call; `done` then brings the model's notes.
   */
  response: z.string(),
  issues: z.array(proofreadIssueSchema),
  /**
   * The checked text with the safe corrections applied: each issue with a `correction`, in order.
   * Undoing one puts its `original` back at its place (offsets shift by the corrections before).
   */
  corrected_text: z.string(),
  /** True when only the beginning of a long document was checked. */
  truncated: z.boolean(),
  /** Whether `response` was written by the model. */
  ai: z.boolean(),
});
export type ProofreadResponse = z.infer<typeof proofreadResponseSchema>;

/**
 * Form fields of POST /api/bulk-sentiment-analysis besides `file` / `file_id`. Without `column`
 * the server scores the column with the most words per cell (text, not a category such as
 * "CONTENT TYPE" holding "Journals"); with it, that column (matched without regard to case).
 */
export const sentimentRequestSchema = z.object({
  column: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string({ error: 'column must be text' })
      .trim()
      .max(200, 'column must be at most 200 characters')
      .optional(),
  ),
});
export type SentimentRequest = z.input<typeof sentimentRequestSchema>;

export const sentimentLabelSchema = z.enum(['positive', 'negative', 'neutral']);
export type SentimentLabel = z.infer<typeof sentimentLabelSchema>;

export const sentimentScoreSchema = z.object({
  label: sentimentLabelSchema,
  /** VADER compound score, -1 (most negative) to 1 (most positive). */
  score: z.number().min(-1).max(1),
});

export const sentimentResponseSchema = z.object({
  /** Model-written overview, or (without a model) a plain summary of the numbers. */
  response: z.string(),
  overall: sentimentScoreSchema,
  items: z.array(
    sentimentScoreSchema.extend({
      text: z.string(),
      /** For xlsx: the sheet the row comes from. */
      sheet: z.string().optional(),
    }),
  ),
  /** Whether `response` was written by the model. */
  ai: z.boolean(),
  /** The column scored, for csv and single-sheet tables (the first sheet's, for older clients). */
  column: z.string().optional(),
  /** For xlsx: each sheet's own scored column; a sheet's rows are read only in its column. */
  columns: z.array(z.object({ sheet: z.string(), column: z.string() })).optional(),
  /** For csv and xlsx: the columns the request's `column` may name (headers, or "Column n"). */
  column_choices: z.array(z.string()).optional(),
});
export type SentimentResponse = z.infer<typeof sentimentResponseSchema>;

export const downloadResponseRequestSchema = z.object({
  text: z.string({ error: 'text is required' }).max(500_000, 'text is too long'),
  format: z.enum(DOWNLOAD_FORMATS, { error: 'format must be one of txt, pdf, docx' }),
  /** Without extension; defaults to "downloaded_file" (spec §5). */
  file_name: z.string().max(200).optional(),
});
export type DownloadResponseRequest = z.infer<typeof downloadResponseRequestSchema>;
