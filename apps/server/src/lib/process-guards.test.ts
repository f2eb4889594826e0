import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startNodeProcess, type NodeProcess } from '../../test/scale-out/node-process';

/**
 * Issue 36: one rejected promise that nobody waited for ended the server (Node's default). The
 * server process here is the product's entry point (server.ts) with a fault injector loaded
 * (test/fault-injection.mjs): an unhandled rejection is logged and the server keeps serving; an
 * uncaught exception is logged and the process exits with code 1, for its supervisor to restart.
 */
const injector = pathToFileURL(path.resolve(import.meta.dirname, '../../test/fault-injection.mjs'));

describe('the process guards (server.ts)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-guards-'));
  let server: { url: string; process: NodeProcess } | undefined;
  afterAll(async () => {
    await server?.process.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs an unhandled rejection and serves on; stops with code 1 on an uncaught exception', async () => {
    const started = await startNodeProcess({
      entry: 'apps/server/src/server.ts',
      nodeArgs: ['--import', injector.href],
      env: {
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        MODEL_DOWNLOAD: 'off',
        ANALYSIS_BROWSER: 'off',
      },
      ready: /running at (http:\/\/[^/\s]+)/,
    });
    server = { url: started.match[1]!.replace('localhost', '127.0.0.1'), process: started.process };
    const proc = server.process;

    process.kill(proc.pid, 'SIGUSR2');
    await expect
      .poll(() => proc.output(), { timeout: 10_000 })
      .toMatch(/unhandled promise rejection.*still serving/);
    expect(proc.output()).toContain('injected rejection (fault-injection.mjs)');
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    process.kill(proc.pid, 'SIGHUP');
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/uncaught exception: the process stops/);
    expect(proc.output()).toContain('injected exception (fault-injection.mjs)');
  }, 240_000);
});
