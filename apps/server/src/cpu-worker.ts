import { parentPort } from 'node:worker_threads';
import { CPU_TASKS } from './cpu-tasks';
import { serveCalls } from './lib/worker-thread';
import type { CpuCall } from './workers/cpu-pool';

/**
 * A CPU pool worker thread (workers/cpu-pool.ts): runs the named task on its argument. It sits
 * beside the task table it loads, above the features, so the pool itself imports none.
 */
serveCalls(parentPort!, (call: CpuCall) =>
  (CPU_TASKS[call.task] as (arg: unknown) => unknown)(call.arg),
);
