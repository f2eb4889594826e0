import type { SummaryMode } from '@inkwell/contract';
import { estimateTokens } from '../../lib/token-estimate';
import type { TextUnit } from '../files';
import { documentPieces, packChunks } from './chunking';
import { renderExport, type RenderedFormat } from './export-render';
import { selectSentences } from './extractive/select-sentences';
import { buildFilePassages, indexRows } from './knowledge/passages';
import { sentimentScores } from './sentiment-scores';

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
  /** Bulk sentiment: the column to read, and VADER's score of each row or paragraph. */
  sentimentScores,
  /** A docx or pdf of an answer to download (export-render.ts), its bytes moved back. */
  exportFile: (a: { text: string; format: RenderedFormat }) => renderExport(a.text, a.format),
};

export type DocumentsCpuTasks = typeof documentsCpuTasks;
