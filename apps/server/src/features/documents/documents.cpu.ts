import type { SummaryMode } from '@inkwell/contract';
import { estimateTokens } from '../../lib/token-estimate';
import type { TextUnit } from '../files';
import { documentPieces, packChunks } from './chunking';
import { selectSentences } from './extractive/select-sentences';
import { buildFilePassages, indexRows } from './knowledge/passages';

/**
 * The documents feature's CPU pool tasks (listed with the others in src/cpu-tasks.ts), apart from
 * index.ts so a worker thread loads only these modules.
 */
export const documentsCpuTasks = {
  /**
   * A summary's chunks, counted by estimate at the model's rate: every piece of the document
   * (`full`), or the extractive step's most central sentences, at most `maxTokens` (`bounded`).
   */
  summaryChunks: (a: {
    units: TextUnit[];
    mode: SummaryMode;
    maxTokens: number;
    budget: number;
    tokensPerEstimate: number;
  }) => {
    const count = (t: string) => Math.ceil(estimateTokens(t) * a.tokensPerEstimate);
    const pieces =
      a.mode === 'full'
        ? documentPieces(a.units)
        : selectSentences(a.units, a.maxTokens, count).pieces;
    return packChunks(pieces, a.budget, count);
  },
  /** A file's passages and their terms for the search index (knowledge/). */
  searchPassages: (a: { units: TextUnit[]; text: string }) => indexRows(buildFilePassages(a)),
};

export type DocumentsCpuTasks = typeof documentsCpuTasks;
