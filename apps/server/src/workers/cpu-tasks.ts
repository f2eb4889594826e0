import type { SummaryMode } from '@inkwell/contract';
import { readCachedText, type CachedText } from '../features/files/cached-text-reader';
import { docxBlocks } from '../features/files/docx-blocks';
import { estimateTokens } from '../features/ai/token-estimate';
import { documentPieces, packChunks } from '../features/documents/chunking';
import { selectSentences } from '../features/documents/extractive/select-sentences';
import type { TextUnit } from '../features/documents/reader';
import { auditSeoPage } from '../features/analysis/audits/seo/audit-seo-page';
import { axeInJsdom } from '../features/analysis/audits/accessibility/axe-jsdom-page';
import { pageLinks } from '../features/analysis/fetch/page-links';
import type { FetchedResource } from '../features/analysis/fetch/safe-fetch';

/**
 * The CPU-heavy steps that run in the CPU pool's worker threads (cpu-pool.ts), never on the
 * server's event loop: each takes and returns plain data (structured-clonable).
 */
export const CPU_TASKS = {
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
  /** A file's cached text (file_text_cache), parsed. */
  parseCachedText: (json: string) => JSON.parse(json) as CachedText,
  /** A file's cached text read from its SQLite file and parsed (undefined when not cached). */
  readCachedText: (a: { dbFile: string; fileId: number }) => readCachedText(a.dbFile, a.fileId),
  /** jsdom parsing of an audited page, and what runs on it: the SEO audits, axe, its links. */
  auditSeoPage: (a: Parameters<typeof auditSeoPage>[0]) =>
    auditSeoPage({ ...a, page: withBuffer(a.page) }),
  axeInJsdom: (page: FetchedResource) => axeInJsdom(withBuffer(page)),
  /** A docx's headings, lists and tables for its preview (mammoth, then jsdom). */
  docxBlocks: (bytes: Uint8Array) =>
    docxBlocks(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
  pageLinks: (page: FetchedResource) => pageLinks(withBuffer(page)),
};

/** A page's body arrives as a Uint8Array (structured clone); the parsers expect a Buffer. */
function withBuffer(page: FetchedResource): FetchedResource {
  const b = page.body as Uint8Array;
  return { ...page, body: Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
}

export type CpuTasks = typeof CPU_TASKS;
export type CpuTaskName = keyof CpuTasks;
