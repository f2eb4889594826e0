import type { FastifyRequest } from 'fastify';
import { chatRequestSchema } from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';

/**
 * The question of a chat request, from a multipart form (what the web app sends), a JSON body or
 * a url-encoded form, validated with the contract's schema.
 */
export async function readChatText(request: FastifyRequest): Promise<string> {
  let raw: unknown;
  if (request.isMultipart()) {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        // Drains unexpected files so the multipart stream can go on.
        part.file.resume();
      } else if (part.fieldname === 'text' && raw === undefined) {
        raw = part.value;
      }
    }
  } else {
    const body = request.body;
    raw = body && typeof body === 'object' ? (body as Record<string, unknown>).text : undefined;
  }
  const parsed = chatRequestSchema.safeParse({ text: raw });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data.text;
}

/** True when the client asked for server-sent events. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}
