import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { RECEIVING_MESSAGE, RECEIVING_PER_USER } from './receiving';

const BOUNDARY = 'inkwell-receiving-test';

/** A summary request whose upload is sent in part and held: the server is still receiving it. */
function heldUpload(server: TestServer, token: string) {
  const req = httpRequest(`${server.url}/api/summarize`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
  });
  let answer: { status: number; body: string } | undefined;
  req.on('response', (res: IncomingMessage) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => (answer = { status: res.statusCode ?? 0, body }));
  });
  req.on('error', () => undefined); // refused before its end: the socket may be reset
  req.write(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${'Some notes about the meeting. '.repeat(1000)}`,
  );
  return {
    req,
    answer: () => answer,
    finish: () => req.end(`\r\n--${BOUNDARY}--\r\n`),
  };
}

describe('document requests received at once', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('admits a few per person at a time and refuses the rest before reading them', async () => {
    const ann = await registerUser(server);
    const bo = await registerUser(server);
    const held: ReturnType<typeof heldUpload>[] = [];
    for (let i = 0; i < RECEIVING_PER_USER + 2; i++) held.push(heldUpload(server, ann.token));
    // The two beyond the limit are answered at once, their uploads not awaited.
    await expect.poll(() => held.filter((h) => h.answer()).length, { timeout: 10_000 }).toBe(2);
    const refused = held.filter((h) => h.answer());
    for (const h of refused) {
      expect(h.answer()!.status).toBe(429);
      expect(JSON.parse(h.answer()!.body)).toEqual({ error: RECEIVING_MESSAGE });
    }
    // Another person is not held up by Ann's uploads.
    const boUpload = heldUpload(server, bo.token);
    boUpload.finish();
    await expect.poll(() => boUpload.answer()?.status, { timeout: 10_000 }).toBeDefined();
    expect(boUpload.answer()!.status).not.toBe(429);

    // The admitted ones arrive and are answered (no model here: 503); Ann may send again.
    const admitted = held.filter((h) => !refused.includes(h));
    for (const h of admitted) h.finish();
    await expect.poll(() => admitted.every((h) => h.answer()), { timeout: 10_000 }).toBe(true);
    for (const h of admitted) expect(h.answer()!.status).not.toBe(429);
    const again = heldUpload(server, ann.token);
    again.finish();
    await expect.poll(() => again.answer()?.status, { timeout: 10_000 }).toBeDefined();
    expect(again.answer()!.status).not.toBe(429);
    for (const h of refused) h.req.destroy();
  });

  it('counts a request no more once its connection is gone', async () => {
    const user = await registerUser(server);
    const dropped: ClientRequest[] = [];
    for (let i = 0; i < RECEIVING_PER_USER; i++) dropped.push(heldUpload(server, user.token).req);
    // All admitted: one more is refused.
    const over = heldUpload(server, user.token);
    await expect.poll(() => over.answer()?.status, { timeout: 10_000 }).toBe(429);
    // Each dropped mid-upload.
    for (const req of dropped) req.destroy();
    await expect
      .poll(
        async () => {
          const h = heldUpload(server, user.token);
          h.finish();
          await expect.poll(() => h.answer()?.status, { timeout: 10_000 }).toBeDefined();
          return h.answer()!.status;
        },
        { timeout: 10_000 },
      )
      .not.toBe(429);
  });
});
