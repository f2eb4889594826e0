import { request } from 'node:http';

/**
 * A client of the product's server-sent-event answers (chat tokens, progress of long work), for
 * tests and benchmarks: it reads events as they arrive, can wait for one, and can hang up like a
 * browser tab that closes. node:http, not fetch: undici opens a spare connection after an abort,
 * which keeps the server from closing.
 */
export interface StreamEvent {
  event: string;
  data: unknown;
  /** performance.now() when it arrived. */
  at: number;
}

export interface EventStream {
  status: number;
  events: StreamEvent[];
  /** Resolves with the first event (already arrived or still to come) that matches. */
  waitFor(match: (e: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Resolves when the server has ended the answer. */
  ended: Promise<void>;
  hangUp(): void;
}

export interface StreamRequest {
  path: string;
  token?: string;
  /** A multipart or url-encoded body (encoded by the caller), or JSON. */
  body: { contentType: string; bytes: Buffer };
}

/** Encodes fields and files as multipart/form-data, as a browser would. */
export async function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(form);
  return {
    contentType: encoded.headers.get('content-type')!,
    bytes: Buffer.from(await encoded.arrayBuffer()),
  };
}

export function openEventStream(baseUrl: string, req: StreamRequest): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      accept: 'text/event-stream',
      'content-type': req.body.contentType,
      'content-length': req.body.bytes.length,
    };
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    const r = request(`${baseUrl}${req.path}`, { method: 'POST', agent: false, headers });
    r.on('error', reject);
    r.on('response', (res) => {
      const events: StreamEvent[] = [];
      const waiters: { match: (e: StreamEvent) => boolean; resolve: (e: StreamEvent) => void }[] =
        [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r2) => (endedResolve = r2));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data === undefined) continue;
          const e = { event, data: JSON.parse(data) as unknown, at: performance.now() };
          events.push(e);
          for (const w of [...waiters]) {
            if (w.match(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
          }
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      res.on('error', () => endedResolve());
      resolve({
        status: res.statusCode ?? 0,
        events,
        ended,
        waitFor: (match) =>
          new Promise((res2, rej) => {
            const found = events.find(match);
            if (found) return res2(found);
            waiters.push({ match, resolve: res2 });
            void ended.then(() => {
              if (waiters.some((w) => w.resolve === res2)) rej(new Error('the stream ended first'));
            });
          }),
        hangUp: () => r.destroy(),
      });
    });
    r.end(req.body.bytes);
  });
}
