// A proofreading worker (see harper-pool.ts): Harper checks one text per call, in the user's
// English or, when that is `auto`, the text's own (detecting it reads the whole text: here, not
// on the event loop).
import { parentPort } from 'node:worker_threads';
import type { EnglishDialect } from '@inkwell/contract';
import { serveCalls } from '../../../lib/worker-pool';
import { dialectFor } from './english-dialect';
import { lintText } from './harper';

export interface LintCall {
  text: string;
  /** The user's setting; undefined or `auto`: the text's own. */
  dialect?: EnglishDialect;
}

serveCalls(parentPort!, (call: LintCall) =>
  lintText(call.text, dialectFor(call.dialect, call.text)),
);
