import { availableParallelism } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { HttpError } from '../lib/http-error';
import { siblingModule, WORKER_NICENESS, WorkerPool, type CallFailure } from '../lib/worker-pool';
import type { CpuCall } from './cpu-worker';
import type { CpuTaskName, CpuTasks } from './cpu-tasks';

type Arg<K extends CpuTaskName> = Parameters<CpuTasks[K]>[0];
type Result<K extends CpuTaskName> = Awaited<ReturnType<CpuTasks[K]>>;

/** A task failed in its worker: its message (and HTTP status, when it had one) as it was thrown. */
export class CpuTaskError extends Error {}

function taskError(f: CallFailure): Error {
  switch (f.kind) {
    case 'thrown':
      return f.status ? new HttpError(f.status, f.message) : new CpuTaskError(f.message);
    case 'crashed':
      return new CpuTaskError(f.message);
    case 'exited':
      return new CpuTaskError(`the worker stopped (exit code ${f.exitCode})`);
    case 'timed out':
      return new CpuTaskError('the task took too long');
  }
}

/**
 * Worker threads for the server's CPU-heavy steps (cpu-tasks.ts): the event loop only hands
 * work over and routes requests, so a 10 MB summary or a page audit never holds up /api/health
 * or anyone else's request. One task per worker at a time (a crash fails that task only); tasks
 * queue when every worker is busy. Workers keep what they loaded (jsdom, axe) for the next task.
 */
export class CpuPool {
  private readonly pool: WorkerPool;

  constructor(size = Math.max(1, Math.min(4, availableParallelism()))) {
    this.pool = new WorkerPool(siblingModule('cpu-worker', import.meta.url), {
      size,
      callsPerWorker: 1,
      failure: taskError,
      niceness: WORKER_NICENESS,
    });
  }

  /** Workers started so far. */
  get started(): number {
    return this.pool.started;
  }

  /** Runs a task; `transfer` moves its buffers to the worker instead of copying them. */
  run<K extends CpuTaskName>(
    task: K,
    arg: Arg<K>,
    transfer?: readonly Transferable[],
  ): Promise<Result<K>> {
    return this.pool.call<Result<K>>({ task, arg } satisfies CpuCall, { transfer });
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  closeIdle(): Promise<void> {
    return this.pool.closeIdle();
  }
}

let shared: CpuPool | undefined;

/** The process's CPU pool, made on first use. */
export function cpuPool(): CpuPool {
  shared ??= new CpuPool();
  return shared;
}

/** Ends the shared pool's idle workers (the app's onClose; another app may still use it). */
export async function closeCpuPool(): Promise<void> {
  await shared?.closeIdle();
}
