import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../lib/http-error';
import type { CpuRequest } from './cpu-worker';
import type { CpuTaskName, CpuTasks } from './cpu-tasks';

type Arg<K extends CpuTaskName> = Parameters<CpuTasks[K]>[0];
type Result<K extends CpuTaskName> = Awaited<ReturnType<CpuTasks[K]>>;

interface Queued {
  req: CpuRequest;
  resolve(result: unknown): void;
  reject(err: Error): void;
}

type Reply = { result: unknown; error?: never } | { error: string; status?: number };

/** A task failed in its worker: its message (and HTTP status, when it had one) as it was thrown. */
export class CpuTaskError extends Error {}

/**
 * Worker threads for the server's CPU-heavy steps (cpu-tasks.ts), like the document reader's
 * ExtractionPool: the event loop only hands work over and routes requests, so a 10 MB summary or
 * a page audit never holds up /api/health or anyone else's request. Workers are kept for the next
 * task (with what they loaded: jsdom, axe); a worker that dies (out of memory) fails its task only
 * and is replaced. Tasks queue when every worker is busy.
 */
export class CpuPool {
  private idle: Worker[] = [];
  private busy = 0;
  private queue: Queued[] = [];
  /** Workers started so far. */
  started = 0;

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism()))) {}

  run<K extends CpuTaskName>(task: K, arg: Arg<K>): Promise<Result<K>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ req: { task, arg }, resolve: resolve as (r: unknown) => void, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    const idle = this.idle;
    this.idle = [];
    await Promise.all(idle.map((w) => w.terminate()));
  }

  private next(): void {
    if (this.queue.length === 0 || (this.idle.length === 0 && this.busy >= this.size)) return;
    const job = this.queue.shift()!;
    const worker = this.idle.pop() ?? this.spawn();
    this.busy++;
    const finish = (keep: boolean, settle: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      this.busy--;
      if (keep) this.idle.push(worker);
      else void worker.terminate();
      settle();
      this.next();
    };
    const onMessage = (reply: Reply) =>
      finish(true, () =>
        reply.error === undefined
          ? job.resolve(reply.result)
          : job.reject(
              reply.status
                ? new HttpError(reply.status, reply.error)
                : new CpuTaskError(reply.error),
            ),
      );
    const onError = (err: Error) => finish(false, () => job.reject(new CpuTaskError(err.message)));
    const onExit = (code: number) =>
      finish(false, () => job.reject(new CpuTaskError(`the worker stopped (exit code ${code})`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(job.req);
  }

  private spawn(): Worker {
    const worker = new Worker(workerBootstrap(), { eval: true });
    worker.unref(); // an idle worker must not keep the process alive
    worker.once('exit', () => {
      this.idle = this.idle.filter((w) => w !== worker);
    });
    this.started++;
    return worker;
  }
}

/** The worker's start: under tsx (TypeScript sources), a worker thread registers tsx first. */
function workerBootstrap(): string {
  const url = new URL(
    `./cpu-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
    import.meta.url,
  );
  if (!url.pathname.endsWith('.ts')) return `import(${JSON.stringify(url.href)});`;
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsxApi = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
}

let shared: CpuPool | undefined;

/** The process's CPU pool, made on first use. */
export function cpuPool(): CpuPool {
  shared ??= new CpuPool();
  return shared;
}

/** Ends the shared pool's idle workers (the app's onClose). */
export async function closeCpuPool(): Promise<void> {
  await shared?.close();
}
