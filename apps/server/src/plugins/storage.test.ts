import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../config';
import storagePlugin from './storage';

const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-storage-plugin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('removes the temp files of uploads a crash cut short when the server starts', async () => {
  const tmp = path.join(dataDir, 'files', '.tmp');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(path.join(tmp, 'crashed'), 'half an upload');

  const app = Fastify({ logger: false });
  app.decorate('config', loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }));
  await app.register(storagePlugin);
  await app.ready();
  expect(readdirSync(tmp)).toEqual([]);
  await app.close();
});
