// A worker module for worker-pool.test.ts: answers echoes; `crashAfter` answers, then throws
// outside any call (as a library's stray timer would), so the worker ends while idle; `block`
// holds its thread until the test sets the shared flag (only ending the worker stops it sooner);
// `spin` keeps its thread busy on the CPU for `ms`; `niceness` tells the thread's niceness when
// its module loaded and now; `thread` tells its thread id. With WORKER_POOL_FIXTURE_HOLD naming a
// file, its module does not finish loading while that file exists (a slow load, held by a test).
import { existsSync } from 'node:fs';
import { getPriority } from 'node:os';
import { parentPort, threadId } from 'node:worker_threads';
import { serveCalls } from './worker-thread';

export type FixtureCall =
  | { op: 'echo'; value: string }
  | { op: 'crashAfter' }
  | { op: 'block'; flag: SharedArrayBuffer }
  | { op: 'spin'; ms: number }
  | { op: 'niceness' }
  | { op: 'thread' };

const hold = process.env.WORKER_POOL_FIXTURE_HOLD;
while (hold && existsSync(hold)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);

// On Linux, the priority of "this process" (0) is the calling thread's.
const nicenessAtLoad = getPriority();

serveCalls(parentPort!, (call: FixtureCall) => {
  if (call.op === 'echo') return call.value;
  if (call.op === 'thread') return threadId;
  if (call.op === 'niceness') return { atLoad: nicenessAtLoad, now: getPriority() };
  if (call.op === 'spin') {
    const end = Date.now() + call.ms;
    while (Date.now() < end);
    return 'spun';
  }
  if (call.op === 'block') {
    Atomics.wait(new Int32Array(call.flag), 0, 0);
    return 'released';
  }
  setImmediate(() => {
    throw new Error('a stray error after the answer');
  });
  return 'answered';
});
