import { availableParallelism, totalmem } from 'node:os';
import type { Transferable } from 'node:worker_threads';
import { HttpError } from '../lib/http-error';
import { WORKER_NICENESS, WorkerPool, type CallFailure, type PoolThread } from '../lib/worker-pool';
import { siblingModule } from '../lib/worker-thread';
import { CPU_TASK_LIMITS, taskTimeLimitsMs, type CpuTaskName } from './cpu-task-limits';

/**
 * Tasks by name, as a feature declares its own (its `<feature>.cpu.ts`; src/cpu-tasks.ts joins
 * them for the worker threads): a feature's calls are typed by its table, `cpuPool<Table>()`, so
 * the pool imports no feature.
 */
export type CpuTaskTable = { [K in CpuTaskName]?: (arg: never) => unknown };
/** A call to a CPU pool worker (src/cpu-worker.ts): the named task and its argument. */
export interface CpuCall {
  task: CpuTaskName;
  arg: unknown;
}

type Arg<T, K extends keyof T> = T[K] extends (arg: infer A) => unknown ? A : never;
type Result<T, K extends keyof T> = T[K] extends (arg: never) => infer R ? Awaited<R> : never;

/** A task failed in its worker: its message (and HTTP status, when it had one) as it was thrown. */
export class CpuTaskError extends Error {}

/** A task ran past its time limit: its worker was ended (and is replaced). */
export class CpuTaskTimedOut extends HttpError {
  constructor(task: CpuTaskName, limitMs: number) {
    super(
      504,
      `${CPU_TASK_LIMITS[task].what} took longer than its limit (${limitMs / 1000} s) and was stopped.`,
    );
  }
}

/** A task needed more than a worker's heap: its worker ended (and is replaced), not the server. */
export class CpuTaskOutOfMemory extends HttpError {
  constructor(task: CpuTaskName) {
    super(413, `${CPU_TASK_LIMITS[task].what} needs more memory than one task may use.`);
  }
}

/** Marks a time-out for run(), which knows the task and its limit. */
class TimedOut extends Error {}
/** Marks a worker ended by its heap limit, for run() likewise. */
class OutOfMemory extends Error {}

/**
 * Each worker's old-generation heap limit: a runaway task (a docx preview of 5 MB of empty
 * paragraphs took 1.1 GB) ends its own worker instead of exhausting the server's memory. An
 * eighth of the machine's memory, 512 MB to 2 GB: the signed-in lane's four workers stay within
 * half of it. Node ends a worker at its limit on a best effort (nodejs/node#47224): a heap of
 * many objects ends the worker alone, one array grown past the limit can still abort the process.
 */
export const CPU_WORKER_HEAP_MB = Math.max(
  512,
  Math.min(2048, Math.floor(totalmem() / 2 ** 20 / 8)),
);

function taskError(f: CallFailure): Error {
  switch (f.kind) {
    case 'thrown':
      return f.status ? new HttpError(f.status, f.message) : new CpuTaskError(f.message);
    case 'crashed':
      return f.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new OutOfMemory()
        : new CpuTaskError(f.message);
    case 'exited':
      return new CpuTaskError(`the worker stopped (exit code ${f.exitCode})`);
    case 'timed out':
      return new TimedOut();
  }
}

/**
 * Who a task works for. Page analyses anyone may ask for without an account run in their own
 * lane, apart from signed-in users' work (their documents: cached texts, previews, summaries;
 * their page and site analyses), so a flood of slow anonymous pages never makes a user's
 * document wait, and the reverse.
 */
export type CpuLane = 'signed-in' | 'anonymous';

export interface CpuPoolOptions {
  /** Workers of signed-in users' lane (CPU_WORKERS). */
  workers?: number;
  /** Workers of the anonymous lane (CPU_WORKERS_ANONYMOUS). */
  anonymousWorkers?: number;
  /** Time limits in seconds by task, over the defaults (CPU_TASK_TIME_LIMITS). */
  timeLimits?: Partial<Record<CpuTaskName, number>>;
  /** Each worker's heap limit in MB (tests lower it). */
  heapMb?: number;
}

export interface RunOptions {
  lane?: CpuLane;
  /** Stops the task: its worker is ended (and replaced), and the call rejects with the reason. */
  signal?: AbortSignal;
  /** Buffers moved to the worker instead of copied. */
  transfer?: readonly Transferable[];
}

/** Default of CPU_WORKERS: a worker per core, at most 4. */
export const defaultCpuWorkers = () => Math.max(1, Math.min(4, availableParallelism()));

/**
 * Worker threads for the server's CPU-heavy steps (../cpu-tasks.ts): the event loop only hands
 * work over and routes requests, so a 10 MB summary or a page audit never holds up /api/health
 * or anyone else's request. Each lane has its own workers, one task per worker at a time (a crash
 * fails that task only); tasks queue in their lane when its workers are busy. Workers keep what
 * they loaded (jsdom, axe) for the next task. A task past its time limit, or stopped by its
 * signal (a cancelled job), or past its worker's heap limit, ends its worker; the next task of
 * the lane starts a new one.
 */
export class CpuPool<T extends CpuTaskTable = CpuTaskTable> {
  private readonly lanes: Record<CpuLane, WorkerPool>;
  private timeLimitsMs: Record<CpuTaskName, number>;

  constructor(opts: CpuPoolOptions = {}) {
    const workers = opts.workers ?? defaultCpuWorkers();
    const lane = (size: number) =>
      new WorkerPool(siblingModule('../cpu-worker', import.meta.url), {
        size,
        callsPerWorker: 1,
        heapMb: opts.heapMb ?? CPU_WORKER_HEAP_MB,
        failure: taskError,
        niceness: WORKER_NICENESS,
        // Niced: on a busy machine a task waits for a core, and its limit counts the CPU it used.
        timeLimitCounts: 'cpu',
      });
    this.lanes = {
      'signed-in': lane(workers),
      anonymous: lane(opts.anonymousWorkers ?? Math.max(1, Math.floor(workers / 2))),
    };
    this.timeLimitsMs = taskTimeLimitsMs(opts.timeLimits);
  }

  /** New time limits for the tasks from now on (the settings of the app that starts last). */
  setTimeLimits(timeLimits: Partial<Record<CpuTaskName, number>>) {
    this.timeLimitsMs = taskTimeLimitsMs(timeLimits);
  }

  /** Workers started so far, every lane together. */
  get started(): number {
    return this.lanes['signed-in'].started + this.lanes.anonymous.started;
  }

  /** Each lane's threads that have not ended, with the tasks they run. */
  threads(): Record<CpuLane, PoolThread[]> {
    return {
      'signed-in': this.lanes['signed-in'].threads(),
      anonymous: this.lanes.anonymous.threads(),
    };
  }

  /** Runs a task in its lane (signed-in users' unless told), within its time limit. */
  async run<K extends keyof T & CpuTaskName>(
    task: K,
    arg: Arg<T, K>,
    { lane = 'signed-in', signal, transfer }: RunOptions = {},
  ): Promise<Result<T, K>> {
    const timeoutMs = this.timeLimitsMs[task];
    try {
      return await this.lanes[lane].call<Result<T, K>>({ task, arg } satisfies CpuCall, {
        transfer,
        signal,
        timeoutMs,
        label: task,
      });
    } catch (err) {
      if (err instanceof TimedOut) throw new CpuTaskTimedOut(task, timeoutMs);
      throw err instanceof OutOfMemory ? new CpuTaskOutOfMemory(task) : err;
    }
  }

  /** Starts a signed-in users' worker ahead of their first task (a server's start). */
  warm(): void {
    this.lanes['signed-in'].warm();
  }

  close(): Promise<void> {
    return Promise.all([this.lanes['signed-in'].close(), this.lanes.anonymous.close()]).then(
      () => undefined,
    );
  }

  closeIdle(): Promise<void> {
    return Promise.all([
      this.lanes['signed-in'].closeIdle(),
      this.lanes.anonymous.closeIdle(),
    ]).then(() => undefined);
  }
}

let shared: CpuPool | undefined;
let settings: CpuPoolOptions = {};

/**
 * The process's settings for its pool (job-runtime.ts, from the configuration): its sizes if it
 * is not made yet, and the time limits either way.
 */
export function configureCpuPool(opts: CpuPoolOptions) {
  settings = opts;
  shared?.setTimeLimits(opts.timeLimits ?? {});
}

/** The process's CPU pool, made on first use; its calls typed by the caller's tasks (`T`). */
export function cpuPool<T extends CpuTaskTable>(): CpuPool<T> {
  shared ??= new CpuPool(settings);
  return shared as CpuPool<CpuTaskTable> as CpuPool<T>;
}

/** Ends the shared pool's idle workers (at shutdown; another app may still use it). */
export async function closeCpuPool(): Promise<void> {
  await shared?.closeIdle();
}
