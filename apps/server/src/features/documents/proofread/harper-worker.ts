// A proofreading worker (see harper-pool.ts): Harper checks one text per call.
import { parentPort } from 'node:worker_threads';
import { serveCalls } from '../../../lib/worker-pool';
import type { Dialect } from './english-dialect';
import { lintText } from './harper';

export interface LintCall {
  text: string;
  dialect: Dialect;
}

serveCalls(parentPort!, (call: LintCall) => lintText(call.text, call.dialect));
