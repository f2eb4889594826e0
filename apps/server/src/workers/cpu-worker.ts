import { parentPort } from 'node:worker_threads';
import { serveCalls } from '../lib/worker-pool';
import { CPU_TASKS, type CpuTaskName } from './cpu-tasks';

/** A CPU pool worker (cpu-pool.ts): runs the named task on its argument. */
export interface CpuCall {
  task: CpuTaskName;
  arg: unknown;
}

serveCalls(parentPort!, (call: CpuCall) =>
  (CPU_TASKS[call.task] as (arg: unknown) => unknown)(call.arg),
);
