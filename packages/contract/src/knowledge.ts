import { z } from 'zod';
import { CHAT_MAX_CHARS } from './constants';
import { idSchema, MAX_ID } from './ids';

/**
 * Questions across all of a user's files (issue 35): a knowledge base built from a search index in
 * the database, written once per file when it is uploaded and kept in step with rename and delete.
 *
 * POST /api/ask_files   auth, JSON AskFilesRequest (or multipart/form fields `text` and
 *                       `file_ids` as a comma list) → AskFilesResponse. With
 *                       `accept: text/event-stream` it streams as the other long actions do
 *                       (ai.ts) and runs as a job of kind `ask_files` (jobs.ts).
 *   400 empty or too long question, file_ids not ids (1 to MAX_ID); 404 a file_id not the user's;
 *   409 none of the chosen files is searchable yet (still being read) or the folder is empty;
 *   503 no language model (the sources are still not guessed: nothing is answered).
 *
 * A file's place in the index shows in GET /api/my_files as `search` (files.ts).
 */

export const ASK_FILES_MAX_FILES = 2000;

/**
 * `file_ids` as JSON numbers, or as one comma list (multipart / form). An empty list is no list
 * (every file), as an empty form field is and as the web app means when nothing is picked.
 */
const fileIdsSchema = z.preprocess(
  (v) => {
    if (Array.isArray(v) && v.length === 0) return undefined;
    if (typeof v !== 'string') return v;
    const t = v.trim();
    return t === '' ? undefined : t.split(',').map((p) => Number(p.trim()));
  },
  z
    .array(idSchema(`file_ids must be whole numbers from 1 to ${MAX_ID}`), {
      error: 'file_ids must be a list of file ids',
    })
    .max(ASK_FILES_MAX_FILES)
    .optional(),
);

export const askFilesRequestSchema = z.object({
  text: z
    .string({ error: 'Please enter a question' })
    .trim()
    .min(1, 'Please enter a question')
    .max(CHAT_MAX_CHARS, `The question must be at most ${CHAT_MAX_CHARS} characters`),
  /** Default (absent or empty): every file of the account. */
  file_ids: fileIdsSchema,
});
export type AskFilesRequest = z.input<typeof askFilesRequestSchema>;

/** One cited passage, in the order the answer used them. */
export const askFilesSourceSchema = z.object({
  file_id: z.number().int(),
  file_name: z.string(),
  /** The passage as the model read it (plain text). */
  excerpt: z.string(),
  /** Where in the file, for people: "page 4", "slide 2", "sheet Prices", "section 3". */
  where: z.string(),
  /**
   * Where in the file, for the preview: the passage's character offsets in the file's extracted
   * text (GET /api/preview_file/:id?format=text), so a chip can open the preview at it.
   */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type AskFilesSource = z.infer<typeof askFilesSourceSchema>;

export const askFilesResponseSchema = z.object({
  response: z.string(),
  sources: z.array(askFilesSourceSchema),
});
export type AskFilesResponse = z.infer<typeof askFilesResponseSchema>;

/**
 * A file's state in the search index, as GET /api/my_files shows it: `reading` while its text is
 * extracted (or OCR reads a scan) and indexed, `searchable` once questions find it, `unreadable`
 * when no text could be read (`search_error` says why, for people).
 */
export const FILE_SEARCH_STATES = ['reading', 'searchable', 'unreadable'] as const;
export const fileSearchStateSchema = z.enum(FILE_SEARCH_STATES);
export type FileSearchState = z.infer<typeof fileSearchStateSchema>;
