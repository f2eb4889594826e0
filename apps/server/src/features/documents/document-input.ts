import type { FastifyRequest } from 'fastify';
import { documentFileIdSchema, FILE_SIZE_LIMITS, type FileExtension } from '@inkwell/contract';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/http-error';
import { allowedExtension } from '../files/file-names';
import { getFileText, type FilesDeps } from '../files/files.service';
import { extractText, type ExtractResult } from './reader';

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
    for await (const part of request.parts()) {
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

/** A document's text, from the upload or from the user's stored file `file_id`. */
export async function documentText(
  deps: FilesDeps,
  userId: number,
  input: DocumentRequest,
): Promise<ExtractResult & { name: string }> {
  let result: ExtractResult;
  let name: string;
  if (input.file) {
    result = await extractText({ type: input.file.type, bytes: input.file.bytes });
    name = input.file.name;
  } else if (input.fields.file_id !== undefined) {
    const id = documentFileIdSchema.safeParse(input.fields.file_id);
    if (!id.success) throw badRequest(id.error.issues[0]?.message ?? 'Invalid file_id');
    result = await getFileText(deps, userId, id.data);
    name = `file ${id.data}`;
  } else {
    throw badRequest('No file uploaded: send a file or a file_id');
  }
  if (result.text.trim() === '') {
    throw badRequest('This file has no text we can read (it may be empty or a scanned image).');
  }
  return { ...result, name };
}
