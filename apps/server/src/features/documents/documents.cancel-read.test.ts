import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { configureReader } from '../files';

/**
 * A cancelled job stops reading its uploaded document: the reader (here poppler's process) is not
 * kept busy for a text nobody will use. It went on to its end before (up to the reader's time
 * limit, minutes for a scan's OCR).
 */
describe("a cancelled job's upload", () => {
  let server: TestServer;
  let dir: string;
  let pids: string;

  const started = () => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n') : []);
  const running = (pid: string) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  };
  const endStandIns = () => {
    for (const pid of started()) if (running(pid)) process.kill(Number(pid), 'SIGKILL');
  };

  beforeAll(async () => {
    server = await startTestServer();
    // A stand-in pdftotext that notes its process id, then reads for five minutes unless killed
    // (the reader's time limit raised to match): only a stop ends it within the test.
    dir = mkdtempSync(path.join(tmpdir(), 'inkwell-cancelled-read-'));
    pids = path.join(dir, 'pids');
    const command = path.join(dir, 'pdftotext');
    writeFileSync(
      command,
      `#!/bin/sh\necho $$ >> ${pids}\ncat > /dev/null\n` +
        `i=0\nwhile [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done\nprintf 'Too late.\\f'\n`,
    );
    chmodSync(command, 0o755);
    configureReader({ pdftotext: command, timeLimitMs: 300_000 });
  });
  afterAll(async () => {
    endStandIns();
    await server?.close();
    endStandIns();
    rmSync(dir, { recursive: true, force: true });
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
