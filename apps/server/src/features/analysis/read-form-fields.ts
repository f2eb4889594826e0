import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../lib/http-error';
import { formParts } from '../../lib/multipart-form';

/**
 * The text fields of an analysis request: a urlencoded or JSON body (already parsed into an
 * object) or a multipart form, whose files are drained and ignored.
 */
export async function readFormFields(request: FastifyRequest): Promise<unknown> {
  if (!request.isMultipart()) return request.body ?? {};
  const collected: Record<string, string> = {};
  for await (const part of formParts(request)) {
    if (part.type === 'field' && typeof part.value === 'string')
      collected[part.fieldname] = part.value;
    else if (part.type === 'file') await part.toBuffer(); // drain: files are not expected here
  }
  return collected;
}

/** An analysis request's fields checked by its contract schema; the first problem is the 400. */
export async function readAnalysisRequest<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
): Promise<z.output<S>> {
  const parsed = schema.safeParse((await readFormFields(request)) ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.path[0] === 'url')
    throw badRequest(
      issue.code === 'invalid_type' ? 'url: a web address is required' : `url: ${issue.message}`,
    );
  throw badRequest(issue?.message ?? 'Invalid request');
}
