import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { configureReader } from '../files';
import { slowPdftotext } from '../files/testing';

/**
 * A cancelled job stops reading its uploaded document: the reader (here poppler's process) is not
 * kept busy for a text nobody will use. It went on to its end before (up to the reader's time
 * limit, minutes for a scan's OCR).
 */
describe("a cancelled job's upload", () => {
  let server: TestServer;
  const standIn = slowPdftotext('inkwell-cancelled-read-');
  const { started, running } = standIn;

  beforeAll(async () => {
    server = await startTestServer();
    configureReader({ pdftotext: standIn.command, timeLimitMs: standIn.timeLimitMs });
  });
  // A failed run leaves its stand-ins reading: ended before the server (which waits for its
  // reads) and after it (a read its sweep started meanwhile).
  afterAll(async () => {
    standIn.endAll();
    await server?.close();
    standIn.remove();
  });

  it('stops being read when the job is cancelled', async () => {
    const { token } = await registerUser(server);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 0x20)]);
    const stream = await openEventStream(server.url, {
      path: '/api/proofread',
      token,
      body: await multipart({}, { name: 'minutes.pdf', bytes: pdf }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    await expect.poll(() => started().length).toBe(1);
    const pid = started()[0]!;
    expect(running(pid)).toBe(true);

    const res = await server.request(`/api/jobs/${id}`, { method: 'DELETE', token });
    expect(await res.json()).toMatchObject({ id, state: 'cancelled' });
    await expect.poll(() => running(pid)).toBe(false);
    stream.hangUp();
  });
});
