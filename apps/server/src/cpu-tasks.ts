import { analysisCpuTasks } from './features/analysis/analysis.cpu';
import { documentsCpuTasks } from './features/documents/documents.cpu';
import { filesCpuTasks } from './features/files/files.cpu';
import type { CpuTaskName } from './workers/cpu-task-limits';

/**
 * The CPU-heavy steps that run in the CPU pool's worker threads (workers/cpu-pool.ts), never on
 * the server's event loop: each takes and returns plain data (structured-clonable). Each feature
 * lists its own in its `<feature>.cpu.ts`; this table, loaded by every worker thread, joins them.
 */
export const CPU_TASKS = {
  ...documentsCpuTasks,
  ...filesCpuTasks,
  ...analysisCpuTasks,
} satisfies Record<CpuTaskName, (arg: never) => unknown>;

export type CpuTasks = typeof CPU_TASKS;
export type { CpuTaskName };
