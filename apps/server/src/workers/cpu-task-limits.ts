/**
 * What each CPU task (../cpu-tasks.ts) is, in words for its error, and how much CPU time it may
 * use before its worker is ended (time waiting for a core on a busy machine does not count, see
 * cpu-pool.ts): about a hundred times what it takes on a large realistic input, so only
 * a runaway input meets it (a page of tens of thousands of elements, where axe in jsdom takes
 * minutes). CPU_TASK_TIME_LIMITS changes any of them (config.ts). Kept apart from the tasks so
 * the configuration can name them without loading jsdom.
 */
export const CPU_TASK_LIMITS = {
  /** 10 MB of text cut into a summary's chunks: ~1 s of TextRank. */
  summaryChunks: { what: 'Cutting the document into parts', seconds: 120 },
  readCachedText: { what: "Reading the file's text", seconds: 30 },
  parseCachedText: { what: "Reading the file's text", seconds: 30 },
  /** A 10 MB docx's layout for its preview: mammoth, then jsdom, a few seconds. */
  docxBlocks: { what: "Preparing the document's preview", seconds: 60 },
  /** A page's SEO audits in jsdom: ~100 ms for a usual page. */
  auditSeoPage: { what: 'The SEO audit of the page', seconds: 30 },
  /** axe in jsdom: ~200 ms for a usual page, minutes for one of 10,000 elements. */
  axeInJsdom: { what: 'The accessibility audit of the page', seconds: 60 },
  pageLinks: { what: "Reading the page's links", seconds: 20 },
  /** A 10 MB text's passages and terms for the search index: a few seconds. */
  searchPassages: { what: 'Indexing the file for questions', seconds: 300 },
  /** A 500,000-character answer as a pdf: ~2 s (docx ~1 s; as 500,000 empty lines 9 s, 33 s). */
  exportFile: { what: 'Preparing the file to download', seconds: 120 },
  /** A table's or document's 2 M characters scored by VADER: ~6 s. */
  sentimentScores: { what: 'Scoring the sentiment of the document', seconds: 300 },
} as const;

export type CpuTaskName = keyof typeof CPU_TASK_LIMITS;

export const CPU_TASK_NAMES = Object.keys(CPU_TASK_LIMITS) as CpuTaskName[];

/** Each task's time limit in ms: the defaults above, with `overrides` (seconds) on top. */
export function taskTimeLimitsMs(
  overrides: Partial<Record<CpuTaskName, number>> = {},
): Record<CpuTaskName, number> {
  const limits = {} as Record<CpuTaskName, number>;
  for (const name of CPU_TASK_NAMES)
    limits[name] = (overrides[name] ?? CPU_TASK_LIMITS[name].seconds) * 1000;
  return limits;
}
