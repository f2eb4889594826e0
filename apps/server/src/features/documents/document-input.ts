import type { FastifyRequest } from 'fastify';
import { documentFileIdSchema, FILE_SIZE_LIMITS, type FileExtension } from '@inkwell/contract';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/http-error';
import { formParts } from '../../lib/multipart-form';
import {
  allowedExtension,
  findOwnedFile,
  getFileText,
  type FilesDeps,
  extractText,
  type ExtractResult,
} from '../files';

/**
 * The inputs of a document action, from a multipart form (what the web app sends), a url-encoded
 * form or a JSON body: the text fields, and at most one uploaded file read into memory (the
 * global multipart limit is 10 MB; the per-type limits of spec §9 are applied here).
 */
export interface UploadedDocument {
  name: string;
  type: FileExtension;
  bytes: Buffer;
}

export interface DocumentRequest {
  fields: Record<string, string>;
  file?: UploadedDocument;
}

export async function readDocumentRequest(request: FastifyRequest): Promise<DocumentRequest> {
  const fields: Record<string, string> = {};
  let file: UploadedDocument | undefined;
  if (request.isMultipart()) {
    for await (const part of formParts(request)) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in fields))
          fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume(); // drain anything else so the form can be read to the end
        continue;
      }
      const type = allowedExtension(part.filename);
      if (!type) {
        part.file.resume();
        throw unsupportedMediaType('Unsupported file type. Please select an allowed file.');
      }
      // toBuffer() throws the plugin's 413 when the global 10 MB limit is hit.
      const bytes = await part.toBuffer();
      if (bytes.length > FILE_SIZE_LIMITS[type]) throw payloadTooLarge();
      file = { name: part.filename, type, bytes };
    }
  } else if (request.body && typeof request.body === 'object') {
    for (const [k, v] of Object.entries(request.body as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number') fields[k] = String(v);
    }
  }
  return { fields, file };
}

/** The document a request names: an upload, or a stored file the user owns. */
export type DocumentSource =
  { kind: 'upload'; file: UploadedDocument } | { kind: 'stored'; fileId: number; name: string };

/**
 * Which document the request names, checked before any work starts: 400 when it names none,
 * 404 when `file_id` is not one of the user's files. Reading it comes later (readDocument).
 */
export async function documentSource(
  deps: FilesDeps,
  userId: number,
  input: DocumentRequest,
): Promise<DocumentSource> {
  if (input.file) return { kind: 'upload', file: input.file };
  if (input.fields.file_id === undefined) {
    throw badRequest('No file uploaded: send a file or a file_id');
  }
  const id = documentFileIdSchema.safeParse(input.fields.file_id);
  if (!id.success) throw badRequest(id.error.issues[0]?.message ?? 'Invalid file_id');
  const file = await findOwnedFile(deps, userId, id.data);
  return { kind: 'stored', fileId: id.data, name: file.file_name };
}

/**
 * A document's text; 400 when it has none. `signal` (a cancelled job) stops an upload's read; a
 * stored file's read is shared with everyone reading that file (getFileText), so it goes on.
 */
export async function readDocument(
  deps: FilesDeps,
  userId: number,
  source: DocumentSource,
  signal?: AbortSignal,
): Promise<ExtractResult & { name: string }> {
  const result =
    source.kind === 'upload'
      ? await extractText({ type: source.file.type, bytes: source.file.bytes, signal })
      : await getFileText(deps, userId, source.fileId);
  // Not trim(): that copies the whole text (tens of megabytes) on the event loop.
  if (!/\S/.test(result.text)) {
    throw badRequest('This file has no text we can read (it may be empty or a scanned image).');
  }
  const name = source.kind === 'upload' ? source.file.name : source.name;
  return { ...result, name };
}
