// An extraction worker (see extraction-pool.ts): reads one document per message and answers
// with its text or with why it could not.
import { parentPort } from 'node:worker_threads';
import type { FileExtension } from '@inkwell/contract';
import { parseByType } from './parse-by-type';
import { DocumentReadError, type ReaderLimits } from './types';

export interface ExtractJob {
  type: FileExtension;
  bytes: Uint8Array;
  limits: ReaderLimits;
}

parentPort!.on('message', (job: ExtractJob) => {
  parseByType(job.type, job.bytes, job.limits).then(
    (result) => parentPort!.postMessage({ result }),
    (err: unknown) =>
      parentPort!.postMessage({
        // A library's own error (often its internal state as JSON) means nothing to the user.
        error:
          err instanceof DocumentReadError
            ? err.reason
            : 'the file is damaged or is not what its name says',
      }),
  );
});
