import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestServer } from '../../../test/test-app';

const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-startup-sweep-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('removes the temp files of uploads a crash cut short when the server starts', async () => {
  const tmp = path.join(dataDir, 'files', '.tmp');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(path.join(tmp, 'crashed'), 'half an upload');

  const server = await startTestServer({ env: { DATA_DIR: dataDir } });
  try {
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    await server.close();
  }
});
