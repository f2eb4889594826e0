// A proofreading worker (see harper-pool.ts): Harper checks one text per call, in the user's
// English or, when that is `auto`, the text's own (detecting it reads the whole text: here, not
// on the event loop), with the user's personal words; then the safe corrections are chosen
// (safe-corrections.ts), here too: they read the whole text.
import { parentPort } from 'node:worker_threads';
import type { EnglishDialect } from '@inkwell/contract';
import { serveCalls } from '../../../lib/worker-thread';
import { dialectFor } from './english-dialect';
import { lintText, warmUpLinter } from './harper';
import { safeCorrections } from './safe-corrections';

export interface LintCall {
  text: string;
  /** The user's setting; undefined or `auto`: the text's own. */
  dialect?: EnglishDialect;
  /** The user's personal dictionary. */
  words?: string[];
}

serveCalls(parentPort!, async (call: LintCall | { warmUp: true }) => {
  if ('warmUp' in call) return warmUpLinter();
  const findings = await lintText(call.text, dialectFor(call.dialect, call.text), call.words);
  return safeCorrections(call.text, findings, { dictionary: call.words });
});
