import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-app';
import type { CpuTasks } from '../../cpu-tasks';
import { cpuPool, defaultCpuWorkers } from '../../workers/cpu-pool';
import { heavyPage } from '../../workers/heavy-page.test-helper';
import { filesRepo } from './files.repo';
import { getFileText, type FilesDeps } from './files.service';
import { configureReader } from './reader';
import { registerWithId, uploadOk } from './test-helpers';

/**
 * A file is read once however many ask for its text at the same time: the search index's read
 * that the upload starts, a person's preview and an action share one run of the reader.
 */
describe('one read of a file at a time', () => {
  let server: TestServer;
  let dir: string;
  let runs: string;
  let go: string;

  beforeAll(async () => {
    server = await startTestServer();
    // A stand-in pdftotext that notes each run, then holds its page until `go` exists.
    dir = mkdtempSync(path.join(tmpdir(), 'inkwell-one-read-'));
    runs = path.join(dir, 'runs');
    go = path.join(dir, 'go');
    const command = path.join(dir, 'pdftotext');
    writeFileSync(
      command,
      `#!/bin/sh\necho run >> ${runs}\ncat > /dev/null\n` +
        `i=0\nwhile [ ! -f ${go} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done\n` +
        `printf 'The minutes of March say the roof will be green and the picnic moves to June.\\f'\n`,
    );
    chmodSync(command, 0o755);
    configureReader({ pdftotext: command });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runCount = () => (existsSync(runs) ? readFileSync(runs, 'utf8').split('\n').length - 1 : 0);

  it('runs the reader once for the upload, a preview and an action asked while it reads', async () => {
    const user = await registerWithId(server);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 0x20)]);
    const file = await uploadOk(server, user.token, 'minutes.pdf', pdf);
    // The upload's own read (for the search index) has started and is held.
    while (runCount() === 0) await new Promise((r) => setTimeout(r, 20));
    const deps: FilesDeps = {
      db: server.app.db,
      dialect: server.app.dialect,
      storage: server.app.storage,
    };
    const preview = server.request(`/api/preview_file/${file.id}?format=text`, {
      token: user.token,
    });
    const action = getFileText(deps, user.id, file.id);
    // Time for a second reader to start, were there one; with one read it never does.
    await new Promise((r) => setTimeout(r, 500));
    writeFileSync(go, '');
    const shown = await preview;
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('the roof will be green');
    expect((await action).text).toContain('the roof will be green');
    expect(runCount()).toBe(1);
  });

  it("reads a small file's text, first and cached, with every CPU worker busy", async () => {
    // The upload's own read would race this one to the cache; here the test reads first.
    await server.app.knowledge.stop();
    const user = await registerWithId(server);
    const file = await uploadOk(server, user.token, 'notes.txt', 'The picnic moves to June.');
    const pool = cpuPool<CpuTasks>();
    const stop = new AbortController();
    const busy = Array.from({ length: defaultCpuWorkers() }, () =>
      pool.run('axeInJsdom', heavyPage(8000), { signal: stop.signal }),
    );
    for (const b of busy) b.catch(() => {});
    try {
      await expect
        .poll(
          () => pool.threads()['signed-in'].filter((t) => t.calls.includes('axeInJsdom')).length,
          { timeout: 60_000 },
        )
        .toBe(defaultCpuWorkers());
      const deps: FilesDeps = {
        db: server.app.db,
        dialect: server.app.dialect,
        storage: server.app.storage,
      };
      expect((await getFileText(deps, user.id, file.id)).text).toContain('moves to June');
      // Once cached, the small text is read from the cache, again with no worker.
      await expect
        .poll(() => filesRepo.getCachedText(server.app.db, file.id), { timeout: 30_000 })
        .toBeDefined();
      expect((await getFileText(deps, user.id, file.id)).text).toContain('moves to June');
      // Nothing else ended meanwhile: the workers were busy throughout.
      expect(
        pool.threads()['signed-in'].filter((t) => t.calls.includes('axeInJsdom')),
      ).toHaveLength(defaultCpuWorkers());
    } finally {
      stop.abort(new Error('test over'));
      await Promise.allSettled(busy);
    }
  }, 90_000);
});
