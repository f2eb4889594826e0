import { once } from 'node:events';
import { Worker, type Transferable } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeHarperPool, proofreadInWorker } from './harper-pool';

/**
 * A cancelled proofread's check stops: a running one with its worker, a waiting one before it
 * reaches the worker. Both ran to their end before, in the one worker every proofread shares.
 */
describe("a cancelled proofread's checks", () => {
  afterAll(async () => {
    vi.restoreAllMocks();
    await closeHarperPool();
  });

  it('stop, running or waiting, and the next check runs', async () => {
    // The texts handed to the proofreading worker, and the worker each went to.
    const handed: { text: string; worker: Worker }[] = [];
    const post = Worker.prototype.postMessage;
    vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
      this: Worker,
      message: unknown,
      transfer?: readonly Transferable[],
    ) {
      const text = (message as { text?: unknown } | null)?.text;
      if (typeof text === 'string') handed.push({ text, worker: this });
      return post.call(this, message, transfer);
    });
    const long = 'Their going to the store tomorow. '.repeat(3000);
    const [first, second] = [new AbortController(), new AbortController()];
    const running = proofreadInWorker(long, undefined, undefined, first.signal);
    const waiting = proofreadInWorker(`${long}Again.`, undefined, undefined, second.signal);
    await expect.poll(() => handed.length).toBe(1);
    const exited = once(handed[0]!.worker, 'exit');

    first.abort(new Error('cancelled while checked'));
    second.abort(new Error('cancelled while waiting'));
    await expect(running).rejects.toThrow('cancelled while checked');
    await expect(waiting).rejects.toThrow('cancelled while waiting');
    await exited; // the running check's worker was ended, not left checking

    const next = await proofreadInWorker('This is an test.');
    expect(next.issues.length).toBeGreaterThan(0);
    expect(handed.map((h) => h.text)).toEqual([long, 'This is an test.']);
  }, 60_000);
});
