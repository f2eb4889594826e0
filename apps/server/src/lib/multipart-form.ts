import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error';

/**
 * The one way routes read a multipart body. The parser (busboy, under @fastify/multipart) fails
 * with plain errors that carry no HTTP status when a body cannot be read: no boundary or one it
 * cannot use, a part cut short, a stream that dies. Left alone those reach the error handler as
 * 500s; they are the client's body, so they answer 400 here, where they are met.
 */
export const MALFORMED_FORM_MESSAGE =
  'The form could not be read: the multipart/form-data body is malformed.';
export const TOO_MANY_PARTS_MESSAGE = 'The form has too many fields or files.';

type FormOptions = Parameters<FastifyRequest['parts']>[0];

const LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT']);

/**
 * A failure met while reading a multipart body, as the client hears it. Our own HTTP errors and
 * the plugin's client errors keep their status (a file over the limit stays 413); the form limits
 * say what ran out instead of "file too large"; a JSON field that does not parse is a 400 (the
 * plugin says 406, which is about the answer's type, not the request's); anything else the
 * parser threw is a malformed body.
 */
export function formReadError(err: unknown): Error {
  if (err instanceof HttpError) return err;
  const { statusCode, code, message } = (err ?? {}) as {
    statusCode?: unknown;
    code?: unknown;
    message?: unknown;
  };
  if (typeof code === 'string' && LIMIT_CODES.has(code))
    return new HttpError(413, TOO_MANY_PARTS_MESSAGE);
  if (code === 'FST_INVALID_JSON_FIELD_ERROR')
    return new HttpError(400, 'A form field declared as JSON is not valid JSON.');
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return err as Error;
  return new HttpError(400, MALFORMED_FORM_MESSAGE, {}, String(message ?? err));
}

/** Reads a file part to memory; the parser's failures (a file cut short) become 400s. */
async function bufferOf(part: MultipartFile, read: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return await read.call(part);
  } catch (err) {
    throw formReadError(err);
  }
}

/** A file part whose `toBuffer()` answers the parser's failures as 400s. */
function guarded<P extends Multipart>(part: P): P {
  if (part.type !== 'file') return part;
  const read = part.toBuffer;
  part.toBuffer = () => bufferOf(part, read);
  return part;
}

/**
 * Every part of a multipart request, in order. Errors of the parser (on the first read: no
 * boundary; later: a broken form) are thrown as HTTP errors. A file part's stream must be read
 * or drained by the caller; errors met on it are passed through `formReadError` by its reader.
 */
export async function* formParts(
  request: FastifyRequest,
  options?: FormOptions,
): AsyncGenerator<Multipart> {
  let parts: AsyncIterator<Multipart>;
  try {
    parts = request.parts(options)[Symbol.asyncIterator]();
  } catch (err) {
    throw formReadError(err);
  }
  try {
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (err) {
        throw formReadError(err);
      }
      if (next.done) return;
      yield guarded(next.value);
    }
  } finally {
    await parts.return?.();
  }
}

/** The first file part of a multipart request (fields before it are skipped), or undefined. */
export async function firstFormFile(
  request: FastifyRequest,
  options?: FormOptions,
): Promise<MultipartFile | undefined> {
  try {
    const part = await request.file(options);
    return part && guarded(part);
  } catch (err) {
    throw formReadError(err);
  }
}
