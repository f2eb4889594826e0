import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUTO_SEQUENCES_CAP,
  decideSequences,
  planSequences,
  SEQUENCES_BEFORE_DOWNLOAD,
  sequencesForMemory,
} from './sequence-sizing';
import { ensureTinyGguf } from './tiny-gguf';

const MiB = 2 ** 20;

describe('sequence sizing', () => {
  it('fits sequences in half of what the model and the shared buffers leave, within 1..cap', () => {
    const base = { modelBytes: 400 * MiB, sharedBytes: 100 * MiB, perSequenceBytes: 150 * MiB };
    // 2000 - 500 = 1500 left; half is 750: five sequences of 150.
    expect(sequencesForMemory({ ...base, availableBytes: 2000 * MiB })).toBe(5);
    expect(sequencesForMemory({ ...base, availableBytes: 1100 * MiB })).toBe(2);
    // Too little memory: one sequence still (the model runs, or fails to load with its own error).
    expect(sequencesForMemory({ ...base, availableBytes: 300 * MiB })).toBe(1);
    expect(sequencesForMemory({ ...base, availableBytes: 64_000 * MiB })).toBe(AUTO_SEQUENCES_CAP);
    expect(sequencesForMemory({ ...base, availableBytes: 64_000 * MiB, cap: 3 })).toBe(3);
  });

  it("sizes from the model file's KV cache per sequence and the context size", async () => {
    const file = ensureTinyGguf();
    const model = statSync(file).size;
    expect(await planSequences(3, file, 4096)).toMatchObject({ sequences: 3 });
    const roomy = await planSequences('auto', file, 4096, 64 * 1024 * MiB);
    expect(roomy.sequences).toBe(AUTO_SEQUENCES_CAP);
    expect(roomy.reason).toMatch(/^auto: \d+ MiB each at 4096 tokens/);
    // node-llama-cpp estimates ~44 MiB a sequence of the tiny model at 4096 tokens (KV cache and
    // the attention buffers that grow with it): 400 MiB after the model holds about four.
    const tight = await planSequences('auto', file, 4096, model + 400 * MiB);
    expect(tight.sequences).toBeGreaterThanOrEqual(2);
    expect(tight.sequences).toBeLessThan(AUTO_SEQUENCES_CAP);
    // A quarter of the context per sequence: more fit in the same memory.
    const shorter = await planSequences('auto', file, 1024, model + 400 * MiB);
    expect(shorter.sequences).toBeGreaterThan(tight.sequences);
  });

  it('uses a fallback until the model file is there (first start, downloading), or when it is unreadable', async () => {
    expect(await planSequences('auto', '/nonexistent/model.gguf', 4096)).toMatchObject({
      sequences: SEQUENCES_BEFORE_DOWNLOAD,
      reason: /next start/,
    });
    expect(await decideSequences('auto', undefined, 4096)).toMatchObject({
      sequences: SEQUENCES_BEFORE_DOWNLOAD,
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-sizing-'));
    try {
      const garbage = path.join(dir, 'garbage.gguf');
      writeFileSync(garbage, 'not a model');
      expect(await decideSequences('auto', garbage, 4096)).toMatchObject({
        sequences: SEQUENCES_BEFORE_DOWNLOAD,
        reason: /could not read/,
      });
      expect(await decideSequences(5, garbage, 4096)).toMatchObject({ sequences: 5 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
