import type { SummaryMode } from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import { estimateTokens, type ChatTurn } from '../ai';
import { splitOversized, type Chunk } from './chunking';
import { cpuPool } from '../../workers/cpu-pool';
import type { DocumentsCpuTasks } from './documents.cpu';
import {
  clamp,
  complete,
  contextOf,
  inputBudget,
  mapCalls,
  promptTokens,
  requireModel,
  type AiDeps,
} from './model-calls';
import type { TextUnit } from '../files';

/**
 * Map-reduce summary. Every prompt is budgeted so that prompt + reply fit the context window:
 * map (one call per chunk of the document) → reduce (partial summaries packed into groups that
 * fit, combined, repeated until one remains). With n chunks and partial summaries of at most
 * `partialTokens`, the number of calls is n + the combine steps, about n / (groups per call).
 */
const SYSTEM = 'You are a careful assistant that writes faithful, concise summaries in plain text.';
const MAP = (ref: string) =>
  `Summarize this part of a document (${ref}) in a few sentences. Keep names, numbers and conclusions.\n\n`;
const REDUCE =
  'Combine these summaries of consecutive parts of one document into one coherent summary. ' +
  'Keep the most important points, names and numbers.\n\n';
const SINGLE = 'Summarize this document in a short paragraph or a few bullet points.\n\n';

/** Summaries run this many model calls at once (the llama provider queues the rest). */
const PARALLEL_CALLS = 3;

export interface SummaryPlan {
  chunkBudget: number;
  partialTokens: number;
  finalTokens: number;
}

export function planSummary(deps: AiDeps): SummaryPlan {
  const ctx = contextOf(deps);
  const partialTokens = clamp(Math.floor(ctx / 8), 48, 512);
  const finalTokens = clamp(Math.floor(ctx / 4), 96, 1024);
  const fixed = Math.max(
    ...[MAP('Page 1000–1000'), REDUCE, SINGLE].map((p) => promptTokens(deps.ai, turns(p))),
  );
  // A chunk must leave room for the longer of the two replies (a lone chunk gets the final one).
  const chunkBudget = inputBudget(deps, {
    promptTokens: fixed,
    outputTokens: Math.max(partialTokens, finalTokens),
  });
  if (chunkBudget < 2 * partialTokens + 16) {
    throw new Error(`The model's context (${ctx} tokens) is too small to summarize documents`);
  }
  return { chunkBudget, partialTokens, finalTokens };
}

/**
 * `bounded`: a document longer than `maxTokens` is first cut down to its most central sentences
 * of every section (extractive step, no model), so the model reads at most `maxTokens` of it.
 * `full`: every word is read, however long that takes.
 */
export interface SummaryOptions {
  mode: SummaryMode;
  maxTokens: number;
}

export async function summarizeDocument(
  deps: AiDeps,
  units: TextUnit[],
  opts: SummaryOptions,
): Promise<string> {
  requireModel(deps.ai);
  const plan = planSummary(deps);
  const count = (t: string) => deps.ai.countTokens(t);
  const chunks = await chunksInPool(units, opts, plan.chunkBudget, count, deps.signal);
  if (chunks.length === 0) throw badRequest('This file has no text we can read.');
  deps.progress?.stage('summarizing', expectedCalls(chunks, plan));
  if (chunks.length === 1) {
    return complete(deps, turns(SINGLE + chunks[0]!.text), plan.finalTokens);
  }
  let partials = await mapCalls(deps, chunks, PARALLEL_CALLS, async (chunk, siblings) => {
    const text = await complete(siblings, turns(MAP(chunk.ref) + chunk.text), plan.partialTokens);
    return `[${chunk.ref}] ${capTokens(text, plan.partialTokens, count)}`;
  });
  for (;;) {
    const groups = groupToBudget(partials, plan.chunkBudget, count);
    // The calls left, counted again each round from the real groups (a group of one needs no
    // call): the time left follows what remains, not the first plan's guess.
    const thisRound = groups.length === 1 ? 1 : groups.filter((g) => g.length > 1).length;
    deps.progress?.stage('combining', thisRound + combineCalls(groups.length, plan));
    if (groups.length === 1) {
      return complete(deps, turns(REDUCE + groups[0]!.join('\n\n')), plan.finalTokens);
    }
    partials = await mapCalls(deps, groups, PARALLEL_CALLS, async (group, siblings) => {
      if (group.length === 1) return group[0]!;
      const prompt = turns(REDUCE + group.join('\n\n'));
      const text = await complete(siblings, prompt, plan.partialTokens);
      return capTokens(text, plan.partialTokens, count);
    });
  }
}

const turns = (user: string): ChatTurn[] => [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: user },
];

/** A reply longer than it was allowed to be (a server ignoring max_tokens) is cut, so the bound holds. */
function capTokens(text: string, max: number, count: (t: string) => number): string {
  return count(text) <= max ? text : (splitOversized(text, max, count)[0] ?? '');
}

/** Consecutive texts packed into groups whose total stays within the budget. */
export function groupToBudget(
  texts: string[],
  budget: number,
  count: (t: string) => number,
): string[][] {
  const groups: string[][] = [];
  let cur: string[] = [];
  let tokens = 0;
  for (const t of texts) {
    const n = count(t) + 2;
    if (cur.length && tokens + n > budget) {
      groups.push(cur);
      cur = [];
      tokens = 0;
    }
    cur.push(t);
    tokens += n;
  }
  if (cur.length) groups.push(cur);
  return groups;
}

/** The bound the bench checks: map calls plus the combine calls of a full reduce tree. */
export function expectedCalls(chunks: Chunk[], plan: SummaryPlan): number {
  if (chunks.length <= 1) return chunks.length;
  return chunks.length + combineCalls(chunks.length, plan);
}

/** The combine calls that reduce `n` partial summaries to one, a full tree of them. */
function combineCalls(n: number, plan: SummaryPlan): number {
  const perGroup = Math.max(2, Math.floor(plan.chunkBudget / (plan.partialTokens + 16)));
  let combines = 0;
  while (n > 1) {
    const groups = Math.ceil(n / perGroup);
    combines += groups;
    n = groups;
  }
  return combines;
}

/** Characters of the document that measure the model's tokens per estimated token. */
const RATE_SAMPLE_CHARS = 20_000;

/**
 * The summary's chunks, cut in the CPU pool, off the event loop: the extractive step of a bounded
 * summary (TextRank over every sentence: ~1 s of CPU for 10 MB), or every piece of the document
 * for a full one, split and packed. The worker has no model, so it counts tokens by estimate,
 * scaled to the model's own count measured here on a sample (1 for an OpenAI-compatible server,
 * which estimates too); a chunk the model's own count finds over the budget (a tokenizer unlike
 * the sample) is split again here, so every prompt fits.
 */
async function chunksInPool(
  units: TextUnit[],
  opts: SummaryOptions,
  budget: number,
  count: (t: string) => number,
  /** The job's: a cancel stops the cutting too (its worker is ended). */
  signal?: AbortSignal,
): Promise<Chunk[]> {
  const tokensPerEstimate = modelTokensPerEstimate(units, count);
  const chunks = await cpuPool<DocumentsCpuTasks>().run(
    'summaryChunks',
    { units, mode: opts.mode, maxTokens: opts.maxTokens, budget, tokensPerEstimate },
    { signal },
  );
  // Rate 1: the model counts by the same estimate (an OpenAI-compatible server); no check.
  if (tokensPerEstimate === 1) return chunks;
  return chunks.flatMap((c) =>
    count(c.text) <= budget
      ? [c]
      : splitOversized(c.text, budget, count).map((text) => ({ ...c, text, tokens: count(text) })),
  );
}

/** The model's tokens per estimated token, measured on the document's first characters. */
function modelTokensPerEstimate(units: TextUnit[], count: (t: string) => number): number {
  let sample = '';
  // The first units only: joining all of a 10 MB document's would copy it on the event loop.
  for (const u of units) {
    if (sample.length >= RATE_SAMPLE_CHARS) break;
    sample += `${u.text.slice(0, RATE_SAMPLE_CHARS)}\n`;
  }
  sample = sample.slice(0, RATE_SAMPLE_CHARS);
  const estimated = estimateTokens(sample);
  return estimated > 0 ? count(sample) / estimated : 1;
}
