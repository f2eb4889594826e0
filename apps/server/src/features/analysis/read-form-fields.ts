import type { FastifyRequest } from 'fastify';

/**
 * The text fields of an analysis request: a urlencoded or JSON body (already parsed into an
 * object) or a multipart form, whose files are drained and ignored.
 */
export async function readFormFields(request: FastifyRequest): Promise<unknown> {
  if (!request.isMultipart()) return request.body ?? {};
  const collected: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'field' && typeof part.value === 'string')
      collected[part.fieldname] = part.value;
    else if (part.type === 'file') await part.toBuffer(); // drain: files are not expected here
  }
  return collected;
}
