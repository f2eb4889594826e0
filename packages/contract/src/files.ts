import { z } from 'zod';
import { ALLOWED_EXTENSIONS, MAX_FILE_NAME_LENGTH } from './constants';
import { idParamsSchema } from './ids';
import { fileSearchStateSchema } from './knowledge';

/** Schemas of the personal-files endpoints (spec §5, §7, §9). */

export const fileTypeSchema = z.enum(ALLOWED_EXTENSIONS);

/** One stored file as the API shows it (never the storage key or the owner). */
export const fileItemSchema = z.object({
  id: z.number().int(),
  file_name: z.string(),
  type: fileTypeSchema,
  size: z.number().int(),
  created_at: z.string(),
  /** Its state in the search index of questions across files (knowledge.ts). */
  search: fileSearchStateSchema.optional(),
  /** Why it could not be read, when `search` is `unreadable`. */
  search_error: z.string().nullable().optional(),
});
export type FileItem = z.infer<typeof fileItemSchema>;

/** GET /api/my_files: newest first, with the account's usage. */
export const myFilesResponseSchema = z.object({
  files: z.array(fileItemSchema),
  used_bytes: z.number().int(),
  quota_bytes: z.number().int(),
});
export type MyFilesResponse = z.infer<typeof myFilesResponseSchema>;

export const UPLOAD_SUCCESS_MESSAGE = 'File uploaded successfully!';

/** POST /api/upload_file (multipart field `file`). */
export const uploadFileResponseSchema = z.object({
  message: z.literal(UPLOAD_SUCCESS_MESSAGE),
  file: fileItemSchema,
});
export type UploadFileResponse = z.infer<typeof uploadFileResponseSchema>;

export const fileIdParamsSchema = idParamsSchema;

/** GET /api/preview_file/:id?format=text: a pdf's extracted text instead of its bytes. */
export const previewQuerySchema = z.object({ format: z.enum(['file', 'text']).default('file') });
export type PreviewQuery = z.infer<typeof previewQuerySchema>;
export type FileIdParams = z.infer<typeof fileIdParamsSchema>;

/**
 * The new name WITHOUT its extension: the original extension is kept as a fixed suffix. The server
 * also checks that the full name (with extension) fits MAX_FILE_NAME_LENGTH and is not taken (409).
 */
export const renameFileRequestSchema = z.object({
  new_name: z
    .string()
    .trim()
    .min(1, 'The new name must not be empty')
    .max(MAX_FILE_NAME_LENGTH, `The name must be at most ${MAX_FILE_NAME_LENGTH} characters`)
    .refine((v) => !/[/\\]/.test(v), 'The name must not contain / or \\')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'The name must not contain control characters')
    .refine((v) => !/^\.+$/.test(v), 'The name must not be only dots'),
});
export type RenameFileRequest = z.infer<typeof renameFileRequestSchema>;

export const renameFileResponseSchema = z.object({ message: z.string(), file: fileItemSchema });
export type RenameFileResponse = z.infer<typeof renameFileResponseSchema>;

export const deleteFilesResponseSchema = z.object({
  message: z.string(),
  deleted: z.number().int(),
});
export type DeleteFilesResponse = z.infer<typeof deleteFilesResponseSchema>;

/**
 * GET /api/preview_file/:id. A pdf answers with its raw bytes (`application/pdf`), or with its text
 * (JSON, kind 'pages') when asked `?format=text`; every other type answers JSON, discriminated by
 * `kind`. Every JSON form carries `text` (the whole extracted text)
 * so a simple client can always show it; `truncated` says a page/row/size cap cut the document.
 */
export const previewTableSheetSchema = z.object({
  name: z.string(),
  rows: z.array(z.array(z.string())),
});
export type PreviewTableSheet = z.infer<typeof previewTableSheetSchema>;

/** A block of a docx's layout: headings, paragraphs, lists and tables as Word has them. */
export const docBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), level: z.number().int().min(1).max(6), text: z.string() }),
  z.object({ type: z.literal('paragraph'), text: z.string() }),
  z.object({
    type: z.literal('list'),
    ordered: z.boolean(),
    /** Items in order; `depth` 0 for the top level, 1 for a nested list's items, … */
    items: z.array(z.object({ text: z.string(), depth: z.number().int().min(0) })),
  }),
  z.object({ type: z.literal('table'), rows: z.array(z.array(z.string())) }),
]);
export type DocBlock = z.infer<typeof docBlockSchema>;

export const textPreviewSchema = z.object({
  kind: z.literal('text'),
  type: z.enum(['txt', 'docx']),
  text: z.string(),
  truncated: z.boolean(),
  /** docx: the document's structure (headings, lists, tables), when it could be read. */
  blocks: z.array(docBlockSchema).optional(),
});
/** csv (one sheet named after the file) and xlsx (one entry per worksheet, in workbook order). */
export const tablePreviewSchema = z.object({
  kind: z.literal('table'),
  type: z.enum(['csv', 'xlsx']),
  text: z.string(),
  sheets: z.array(previewTableSheetSchema),
  truncated: z.boolean(),
});
/** pptx: one entry per slide in presentation order; `label` is "Slide N". */
export const slidesPreviewSchema = z.object({
  kind: z.literal('slides'),
  type: z.literal('pptx'),
  text: z.string(),
  slides: z.array(z.object({ label: z.string(), text: z.string() })),
  truncated: z.boolean(),
});
/**
 * pdf with `?format=text`: its text page by page ("Page N"). `ocr` is true for a page that has no
 * text layer (a scan) and whose text was read by OCR from its image, so a client can say so: OCR
 * text may hold misread words. A field rather than a marker line in `text`, so that the text the AI
 * actions read stays the document's own.
 */
export const pagesPreviewSchema = z.object({
  kind: z.literal('pages'),
  type: z.literal('pdf'),
  text: z.string(),
  pages: z.array(z.object({ label: z.string(), text: z.string(), ocr: z.boolean() })),
  truncated: z.boolean(),
});
export const previewResponseSchema = z.discriminatedUnion('kind', [
  textPreviewSchema,
  tablePreviewSchema,
  slidesPreviewSchema,
  pagesPreviewSchema,
]);
export type PreviewResponse = z.infer<typeof previewResponseSchema>;
