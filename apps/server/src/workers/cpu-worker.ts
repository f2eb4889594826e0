import { parentPort } from 'node:worker_threads';
import { CPU_TASKS, type CpuTaskName } from './cpu-tasks';

/** A CPU pool worker: runs one task at a time and answers its result or its error's message. */
export interface CpuRequest {
  task: CpuTaskName;
  arg: unknown;
}

parentPort!.on('message', (req: CpuRequest) => {
  const run = CPU_TASKS[req.task] as (arg: unknown) => unknown;
  Promise.resolve()
    .then(() => run(req.arg))
    .then(
      (result) => parentPort!.postMessage({ result }),
      (err: unknown) =>
        parentPort!.postMessage({
          error: err instanceof Error ? err.message : String(err),
          status: (err as { statusCode?: number }).statusCode,
        }),
    );
});
