import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Transferable } from 'node:worker_threads';

// The thread side of a WorkerPool (worker-pool.ts): how a worker starts, answers its calls, and
// how the pool reads a worker thread's CPU time.

/**
 * The CPU time (user and system) a thread of this process has used, in ms, from its
 * /proc/self/task/<tid>/stat (fields 14 and 15, in clock ticks of 1/100 s); undefined if unreadable.
 */
export function threadCpuMs(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // Fields after the name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * The worker's start: the server runs from TypeScript sources (through tsx), and a worker thread
 * does not inherit the loader of the thread that starts it, so it registers tsx first. A niced
 * worker takes its niceness once its module has loaded: the load (about a second of CPU) is on a
 * person's way, their first task waits for it, and under load a niced load took over 10 s; the
 * tasks themselves run niced (the niceness is set before the first call is handled). It says
 * `{ ready: true }` once loaded: a pool of one call per worker hands calls only to loaded workers.
 */
export function workerBootstrap(moduleUrl: URL, niceness = 0): string {
  // On Linux, setpriority() of "this process" (0) sets the calling thread's only; elsewhere it
  // would lower the whole server, so the workers keep the process's priority there.
  const nice =
    niceness > 0 && process.platform === 'linux'
      ? `try { require('node:os').setPriority(${niceness}); } catch {}`
      : '';
  // The thread's id, for the pool to read its CPU time (timeLimitCounts: 'cpu').
  const tid =
    process.platform === 'linux'
      ? `try { require('node:worker_threads').parentPort.postMessage({ tid: Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()) }); } catch {}\n`
      : '';
  // `require` is the bootstrap's own (an eval'd CommonJS script), kept for after the import.
  const ready = `.then(() => { ${nice} require('node:worker_threads').parentPort.postMessage({ ready: true }); })`;
  if (!moduleUrl.pathname.endsWith('.ts'))
    return `${tid}import(${JSON.stringify(moduleUrl.href)})${ready};`;
  // tsx's ESM API (its package maps 'tsx/esm/api' to index.mjs for import, index.cjs for require)
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsxApi = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  return `${tid}import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); })${ready};`;
}

/** The URL of a sibling module, as .ts when running from sources and .js when built. */
export function siblingModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * Answers a pool's calls in a worker module: `handle` gets each message, its result is posted;
 * a thrown error's message (and its `statusCode`, when it has one) is posted instead. A result
 * that is bytes filling their own ArrayBuffer (a file made for a download) is moved, not copied:
 * the task must not keep it.
 */
export function serveCalls(
  port: {
    on(e: 'message', f: (m: { id: number }) => void): unknown;
    postMessage(m: unknown, transfer?: Transferable[]): void;
  },
  handle: (message: never) => unknown,
): void {
  port.on('message', (message) => {
    Promise.resolve()
      .then(() => handle(message as never))
      .then(
        (result) => port.postMessage({ id: message.id, result }, ownBuffer(result)),
        (err: unknown) =>
          port.postMessage({
            id: message.id,
            error: err instanceof Error ? err.message : String(err),
            status: (err as { statusCode?: number } | undefined)?.statusCode,
          }),
      );
  });
}

/** The ArrayBuffer of bytes that fill it whole, to move with them (never a Buffer pool's slab). */
function ownBuffer(result: unknown): Transferable[] {
  return result instanceof Uint8Array &&
    result.buffer instanceof ArrayBuffer &&
    result.byteOffset === 0 &&
    result.byteLength === result.buffer.byteLength
    ? [result.buffer]
    : [];
}
