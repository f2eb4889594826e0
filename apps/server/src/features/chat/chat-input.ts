import { finished } from 'node:stream';
import Busboy, { type BusboyHeaders } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { chatRequestSchema } from '@inkwell/contract';
import { badRequest, payloadTooLarge } from '../../lib/http-error';
import { MALFORMED_FORM_MESSAGE } from '../../lib/multipart-form';

/** Most bytes a chat form may carry: the question is at most 1000 characters. */
export const MAX_CHAT_FORM_BYTES = 64 * 1024;

/**
 * The question of a chat request, from a multipart form (what the web app sends), a JSON body or
 * a url-encoded form, validated with the contract's schema.
 */
export async function readChatText(request: FastifyRequest): Promise<string> {
  let raw: unknown;
  if (request.isMultipart()) {
    raw = await readTextField(request);
  } else {
    const body = request.body;
    raw = body && typeof body === 'object' ? (body as Record<string, unknown>).text : undefined;
  }
  const parsed = chatRequestSchema.safeParse({ text: raw });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data.text;
}

/**
 * The form's `text` field, read with busboy directly: @fastify/multipart's `parts()` iterator
 * costs about half a millisecond more per request, on the way to the chat's first token. Files
 * in the form are discarded; a form over MAX_CHAT_FORM_BYTES is refused with 413.
 */
function readTextField(request: FastifyRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const body = request.raw;
    let form;
    try {
      form = Busboy({
        headers: request.headers as BusboyHeaders,
        limits: { fields: 20, parts: 25, fieldSize: MAX_CHAT_FORM_BYTES },
      });
    } catch {
      return reject(badRequest(MALFORMED_FORM_MESSAGE));
    }
    let text: unknown;
    let received = 0;
    let stopped = false;
    // Once: after the cap every further chunk would otherwise unpipe and reject again.
    const stop = (err: Error) => {
      if (stopped) return;
      stopped = true;
      body.unpipe(form);
      body.resume(); // read the rest, so the client gets the answer
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_CHAT_FORM_BYTES) stop(payloadTooLarge('The message is too long.'));
    });
    form.on('field', (name: string, value: string) => {
      if (name === 'text' && text === undefined) text = value;
    });
    form.on('finish', () => resolve(text));
    form.on('error', () => stop(badRequest(MALFORMED_FORM_MESSAGE)));
    // A client that goes away mid-body ends neither the pipe nor the form: without this the
    // promise (and the request with it) would wait forever.
    finished(body, (err) => {
      if (err) stop(badRequest(MALFORMED_FORM_MESSAGE));
    });
    body.pipe(form);
  });
}
