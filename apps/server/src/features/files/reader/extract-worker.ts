// An extraction worker (see extraction-pool.ts): reads one document per call and answers with
// its text or with why it could not. Parsers are loaded by parseByType when first needed.
import { parentPort } from 'node:worker_threads';
import type { FileExtension } from '@inkwell/contract';
import { serveCalls } from '../../../lib/worker-thread';
import { parseByType } from './parse-by-type';
import { DocumentReadError, type ReaderLimits } from './types';

export interface ExtractJob {
  type: FileExtension;
  bytes: Uint8Array;
  limits: ReaderLimits;
  /** A pdf's pages (1-based) to read, when not all of them (pdf-text.ts). */
  pages?: number[];
}

serveCalls(parentPort!, (job: ExtractJob) =>
  parseByType(job.type, job.bytes, job.limits, job.pages).catch((err: unknown) => {
    // A library's own error (often its internal state as JSON) means nothing to the user.
    throw new Error(
      err instanceof DocumentReadError
        ? err.reason
        : 'the file is damaged or is not what its name says',
    );
  }),
);
