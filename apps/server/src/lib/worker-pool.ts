import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A fixed set of worker threads for CPU work the event loop must not do (passage indexing,
 * proofreading). Calls that name a `route` always go to the same worker, so what a worker keeps
 * in memory (a file's passage index) is found again; others go to the worker with the fewest
 * calls in flight. A worker that dies fails its calls and is replaced on the next one.
 * The worker module answers each `{ id, ...message }` with `{ id, result }` or `{ id, error }`.
 */
interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker?: Worker;
  pending: Map<number, Pending>;
}

export class WorkerPool {
  private readonly slots: Slot[];
  private nextId = 1;

  constructor(
    private readonly moduleUrl: URL,
    size: number,
    private readonly heapMb?: number,
  ) {
    this.slots = Array.from({ length: size }, () => ({ pending: new Map() }));
  }

  call<R>(message: object, route?: string): Promise<R> {
    const slot =
      route === undefined ? this.leastBusy() : this.slots[hash(route) % this.slots.length]!;
    const worker = (slot.worker ??= this.spawn(slot));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.ref(); // a call in flight keeps the process alive; an idle worker does not
      worker.postMessage({ ...message, id });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }

  private leastBusy(): Slot {
    return this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(workerBootstrap(this.moduleUrl), {
      eval: true,
      ...(this.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } } : {}),
    });
    worker.unref();
    worker.on('message', (reply: { id: number; result?: unknown; error?: string }) => {
      const call = slot.pending.get(reply.id);
      if (!call) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if (reply.error !== undefined) call.reject(new Error(reply.error));
      else call.resolve(reply.result);
    });
    const fail = (err: Error) => {
      if (slot.worker === worker) slot.worker = undefined;
      for (const call of slot.pending.values()) call.reject(err);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a worker stopped (exit code ${code})`)));
    return worker;
  }
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return Math.abs(h);
}

/**
 * The worker's start: the server runs from TypeScript sources (through tsx), and a worker thread
 * does not inherit the loader of the thread that starts it, so it registers tsx first.
 */
export function workerBootstrap(moduleUrl: URL): string {
  if (!moduleUrl.pathname.endsWith('.ts')) return `import(${JSON.stringify(moduleUrl.href)});`;
  // tsx's ESM API (its package maps 'tsx/esm/api' to index.mjs for import, index.cjs for require)
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsxApi = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
}

/** The URL of a sibling module, as .ts when running from sources and .js when built. */
export function siblingModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** Answers a pool's calls in a worker module: `handle` gets each message, its result is posted. */
export function serveCalls(
  port: {
    on(e: 'message', f: (m: { id: number }) => void): unknown;
    postMessage(m: unknown): void;
  },
  handle: (message: never) => unknown,
): void {
  port.on('message', (message) => {
    Promise.resolve()
      .then(() => handle(message as never))
      .then(
        (result) => port.postMessage({ id: message.id, result }),
        (err: unknown) =>
          port.postMessage({
            id: message.id,
            error: err instanceof Error ? err.message : String(err),
          }),
      );
  });
}
