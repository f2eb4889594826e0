// A worker module for worker-pool.test.ts: answers echoes; `crashAfter` answers, then throws
// outside any call (as a library's stray timer would), so the worker ends while idle.
import { parentPort } from 'node:worker_threads';
import { serveCalls } from './worker-pool';

export type FixtureCall = { op: 'echo'; value: string } | { op: 'crashAfter' };

serveCalls(parentPort!, (call: FixtureCall) => {
  if (call.op === 'echo') return call.value;
  setImmediate(() => {
    throw new Error('a stray error after the answer');
  });
  return 'answered';
});
