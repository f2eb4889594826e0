import { totalmem } from 'node:os';
import type { FileExtension } from '@inkwell/contract';
import { WorkerPool, type CallFailure } from '../../../lib/worker-pool';
import { siblingModule } from '../../../lib/worker-thread';
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

function readError(f: CallFailure): DocumentReadError {
  switch (f.kind) {
    case 'thrown':
      return new DocumentReadError(f.message);
    case 'crashed':
      return new DocumentReadError(
        f.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'it needs more memory than one document may use'
          : f.message,
      );
    case 'exited':
      return new DocumentReadError(`the reader stopped (exit code ${f.exitCode})`);
    case 'timed out':
      return new DocumentReadError('it took too long to read');
  }
}

/**
 * Parses documents in worker threads, so that no document can block the server or exhaust its
 * memory: a parse that passes the time limit is stopped for real (its worker is terminated, not
 * just left running), one that passes the heap limit ends its worker, not the process. One
 * document per worker at a time; workers are kept for the next document (with the parsers they
 * have loaded).
 */
export class ExtractionPool {
  private readonly pool: WorkerPool;

  constructor(size = WORKERS, heapMb = WORKER_HEAP_MB) {
    this.pool = new WorkerPool(siblingModule('extract-worker', import.meta.url), {
      size,
      heapMb,
      callsPerWorker: 1,
      failure: readError,
    });
  }

  /** Starts a worker ahead of the first document (a server's start). */
  warm(): void {
    this.pool.warm();
  }

  /** Workers started so far: a stopped parse's worker is replaced, never reused. */
  get started(): number {
    return this.pool.started;
  }

  /**
   * Reads a document; of a pdf, only `pages` (1-based) when given. `signal` stops the read: out
   * of the queue, or its worker ended (a parse or an OCR cannot be interrupted otherwise).
   */
  read(
    type: FileExtension,
    bytes: Uint8Array,
    limits: ReaderLimits,
    pages?: number[],
    signal?: AbortSignal,
  ): Promise<ExtractResult> {
    const job: ExtractJob = { type, bytes, limits, ...(pages && { pages }) };
    return this.pool.call<ExtractResult>(job, {
      timeoutMs: limits.timeLimitMs,
      ...(signal && { signal }),
    });
  }

  /** Ends its workers. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

let shared: ExtractionPool | undefined;

/** The process's pool, made on first use. */
export function extractionPool(): ExtractionPool {
  shared ??= new ExtractionPool();
  return shared;
}
