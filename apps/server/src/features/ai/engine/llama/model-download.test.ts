import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startModelDownloadHost } from '../../../../../test/model-download-host';
import { Backoff } from '../backoff';
import { downloadWithRetry } from './model-file';
import { ensureTinyGguf } from './tiny-gguf';

describe('the model download', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-download-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is tried again with backoff after a failure, until the host answers', async () => {
    const bytes = readFileSync(ensureTinyGguf());
    const host = await startModelDownloadHost(bytes, { holdHalfWay: false, down: true });
    try {
      const failures: string[] = [];
      let attempts = 0;
      const backoff = new Backoff({ minMs: 10, maxMs: 40 });
      const file = await downloadWithRetry(
        { uri: host.url, file: path.join(dir, 'tiny.gguf') },
        () => {},
        {
          backoff,
          onAttempt: () => (attempts += 1),
          onFailure: (reason) => {
            failures.push(reason);
            // The host comes back after two failed attempts.
            if (failures.length === 2) void host.restart();
          },
        },
      );
      expect(attempts).toBe(3);
      expect(failures).toHaveLength(2);
      expect(failures[0]).toMatch(/could not download the model .*ECONNREFUSED.*trying again/);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('doubles its wait after each failure, up to the ceiling, and now() ends a wait', async () => {
    const backoff = new Backoff({ minMs: 100, maxMs: 350 });
    const delays: number[] = [];
    const aborted = AbortSignal.abort();
    for (let i = 0; i < 4; i++) {
      await backoff.wait(aborted);
      delays.push(backoff.nextDelayMs());
    }
    expect(delays).toEqual([100, 200, 350, 350]);
    backoff.reset();
    expect(backoff.nextDelayMs()).toBe(100);

    expect(backoff.now()).toBe(false);
    const waiting = backoff.pause(60_000);
    expect(backoff.nextAttemptAt).not.toBeNull();
    expect(backoff.now()).toBe(true);
    await waiting;
    expect(backoff.nextAttemptAt).toBeNull();
  });
});
