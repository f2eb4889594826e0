import { createRequire } from 'node:module';
import { totalmem } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileExtension } from '@inkwell/contract';
import type { ExtractJob } from './extract-worker';
import { DocumentReadError, type ExtractResult, type ReaderLimits } from './types';

/** Documents read at once; more wait their turn. */
const WORKERS = 2;
/**
 * The heap one worker may grow to: a quarter of the machine's memory (so both workers together
 * stay within half of it), at most 4 GB. pdf and pptx are still parsed whole; a document that
 * needs more than this gets a clear error instead of the server's memory. Not lower: with
 * 1.5 GB, V8 collected so often that the 10 MB docx took 6.5 s instead of 5.1 s.
 */
const WORKER_HEAP_MB = Math.max(512, Math.min(4096, Math.floor(totalmem() / 2 ** 20 / 4)));

interface Job extends ExtractJob {
  resolve(result: ExtractResult): void;
  reject(err: DocumentReadError): void;
}

type Reply = { result: ExtractResult; error?: never } | { error: string; result?: never };

/**
 * Parses documents in worker threads, so that no document can block the server or exhaust its
 * memory: a parse that passes the time limit is stopped for real (its worker is terminated, not
 * just left running), one that passes the heap limit ends its worker, not the process. Workers
 * are kept for the next document (with the parsers they have loaded).
 */
export class ExtractionPool {
  private idle: Worker[] = [];
  private busy = 0;
  /** Workers started so far: a stopped parse's worker is replaced, never reused. */
  started = 0;
  private queue: Job[] = [];

  constructor(
    private readonly size = WORKERS,
    private readonly heapMb = WORKER_HEAP_MB,
  ) {}

  read(type: FileExtension, bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ type, bytes, limits, resolve, reject });
      this.next();
    });
  }

  /** Ends every idle worker (busy ones end with their job). */
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
    let done = false;
    const finish = (keepWorker: boolean, settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      this.busy--;
      if (keepWorker) this.idle.push(worker);
      else void worker.terminate();
      settle();
      this.next();
    };
    const fail = (reason: string) => () => job.reject(new DocumentReadError(reason));
    const onMessage = (reply: Reply) =>
      finish(true, reply.result ? () => job.resolve(reply.result) : fail(reply.error!));
    const onError = (err: Error & { code?: string }) =>
      finish(
        false,
        fail(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? 'it needs more memory than one document may use'
            : err.message,
        ),
      );
    const onExit = (code: number) => finish(false, fail(`the reader stopped (exit code ${code})`));
    const timer = setTimeout(
      () => finish(false, fail('it took too long to read')),
      job.limits.timeLimitMs,
    );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    const message: ExtractJob = { type: job.type, bytes: job.bytes, limits: job.limits };
    worker.postMessage(message);
  }

  private spawn(): Worker {
    const worker = new Worker(workerBootstrap(), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
    });
    worker.unref(); // an idle worker must not keep the process alive
    // A worker that ends while idle must not be handed the next document, which would then wait
    // for its time limit. (A busy worker's end is its job's, handled in next().)
    worker.once('exit', () => {
      this.idle = this.idle.filter((w) => w !== worker);
    });
    this.started++;
    return worker;
  }
}

/**
 * The worker's start: the server runs from TypeScript sources (through tsx), and a worker thread
 * does not inherit the loader of the thread that starts it, so it registers tsx first.
 */
function workerBootstrap(): string {
  const url = new URL(
    `./extract-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
    import.meta.url,
  );
  if (!url.pathname.endsWith('.ts')) return `import(${JSON.stringify(url.href)});`;
  // tsx's ESM API (its package maps 'tsx/esm/api' to index.mjs for import, index.cjs for require)
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsxApi = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
}

let shared: ExtractionPool | undefined;

/** The process's pool, made on first use. */
export function extractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}
