// A worker module for worker-pool.test.ts: answers echoes; `crashAfter` answers, then throws
// outside any call (as a library's stray timer would), so the worker ends while idle; `block`
// holds its thread until the test sets the shared flag (only ending the worker stops it sooner);
// `spin` keeps its thread busy on the CPU for `ms`; `niceness` tells the thread's niceness when
// its module loaded and now.
import { getPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { serveCalls } from './worker-thread';

export type FixtureCall =
  | { op: 'echo'; value: string }
  | { op: 'crashAfter' }
  | { op: 'block'; flag: SharedArrayBuffer }
  | { op: 'spin'; ms: number }
  | { op: 'niceness' };

// On Linux, the priority of "this process" (0) is the calling thread's.
const nicenessAtLoad = getPriority();

serveCalls(parentPort!, (call: FixtureCall) => {
  if (call.op === 'echo') return call.value;
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
