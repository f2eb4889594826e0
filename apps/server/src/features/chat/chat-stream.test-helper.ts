import { request } from 'node:http';
import type { ChatErrorEvent, ChatResponse } from '@inkwell/contract';

/** Reads a whole `POST /api/chat` event stream (for tests and benchmarks). */
export async function readChatStream(res: Response) {
  const tokens: string[] = [];
  let done: ChatResponse | undefined;
  let error: ChatErrorEvent | undefined;
  const text = await res.text();
  for (const block of text.split('\n\n')) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (!event || data === undefined) continue;
    const parsed = JSON.parse(data) as unknown;
    if (event === 'token') tokens.push((parsed as { text: string }).text);
    else if (event === 'done') done = parsed as ChatResponse;
    else if (event === 'error') error = parsed as ChatErrorEvent;
  }
  return { tokens, done, error };
}

/**
 * Starts a streamed chat with node:http and resolves at the first bytes, with a way to hang up.
 * (Not fetch: undici opens a spare connection after an abort, which keeps the server from closing.)
 */
export function openChatStream(baseUrl: string, token: string, text: string) {
  return new Promise<{ first: string; hangUp: () => void }>((resolve, reject) => {
    const body = JSON.stringify({ text });
    const req = request(`${baseUrl}/api/chat`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        accept: 'text/event-stream',
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.once('data', (chunk: Buffer) =>
        resolve({ first: chunk.toString(), hangUp: () => req.destroy() }),
      );
      res.on('error', () => {});
    });
    req.end(body);
  });
}
