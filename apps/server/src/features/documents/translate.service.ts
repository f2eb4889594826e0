import type { TranslationLanguage } from '@inkwell/contract';
import type { ChatTurn } from '../ai';
import { documentPieces, splitOversized, splitParagraphs } from './chunking';
import {
  complete,
  contextOf,
  mapCalls,
  promptTokens,
  requireModel,
  type AiDeps,
} from './model-calls';
import type { TextUnit } from '../files';

/**
 * Translation of texts of any length: paragraphs are packed into chunks that leave room for a
 * translation up to twice as long (scripts differ a lot in tokens per sentence), each chunk is
 * translated separately, and the translations are put back together in order with the same
 * paragraph breaks. A paragraph too long for one chunk is cut at sentences and rejoined with a space.
 */
export interface TranslateInput {
  target: TranslationLanguage;
  source?: TranslationLanguage;
}

interface Segment {
  text: string;
  /** How this segment joins the previous one in the output. */
  join: '\n\n' | ' ';
}

const PARALLEL_CALLS = 3;

const system = (t: TranslateInput) =>
  `You are a professional translator. Translate the user's text ${
    t.source ? `from ${t.source} ` : ''
  }into ${t.target}. Reply with the translation only, no notes. Keep every paragraph break ` +
  '(blank line) exactly where it is.';

export async function translateText(deps: AiDeps, text: string, t: TranslateInput) {
  return translateParagraphs(deps, splitParagraphs(text), t);
}

/** A document's text, paragraph by paragraph (rows of a sheet and slide lines each on their own). */
export async function translateDocument(deps: AiDeps, units: TextUnit[], t: TranslateInput) {
  return translateParagraphs(
    deps,
    documentPieces(units).map((p) => p.text),
    t,
  );
}

export function translationBudget(deps: AiDeps, t: TranslateInput): number {
  const fixed = promptTokens(deps.ai, [{ role: 'system', content: system(t) }]) + 16;
  // input + 2 × input (the reply) + fixed must fit the context.
  return Math.floor(((contextOf(deps) - fixed) * 0.95) / 3);
}

async function translateParagraphs(deps: AiDeps, paragraphs: string[], t: TranslateInput) {
  requireModel(deps.ai);
  const budget = translationBudget(deps, t);
  if (budget < 32) throw new Error('The model context is too small to translate');
  const count = (s: string) => deps.ai.countTokens(s);
  const chunks = packSegments(toSegments(paragraphs, budget, count), budget, count);
  deps.progress?.stage('translating', chunks.length);
  const out = await mapCalls(deps, chunks, PARALLEL_CALLS, async (chunk, siblings) => {
    const input = joinSegments(chunk);
    const turns: ChatTurn[] = [
      { role: 'system', content: system(t) },
      { role: 'user', content: input },
    ];
    return complete(siblings, turns, 2 * count(input) + 32);
  });
  return chunks.map((chunk, i) => (i === 0 ? '' : chunk[0]!.join) + out[i]).join('');
}

function toSegments(paragraphs: string[], budget: number, count: (s: string) => number) {
  const segments: Segment[] = [];
  for (const p of paragraphs) {
    splitOversized(p, budget, count).forEach((text, i) =>
      segments.push({ text, join: i === 0 ? '\n\n' : ' ' }),
    );
  }
  return segments;
}

/** Consecutive segments up to the budget; a chunk never starts in the middle of a paragraph unless it must. */
export function packSegments(
  segments: Segment[],
  budget: number,
  count: (s: string) => number,
): Segment[][] {
  const chunks: Segment[][] = [];
  let cur: Segment[] = [];
  let tokens = 0;
  for (const s of segments) {
    const n = count(s.text) + 1;
    if (cur.length && tokens + n > budget) {
      chunks.push(cur);
      cur = [];
      tokens = 0;
    }
    cur.push(s);
    tokens += n;
  }
  if (cur.length) chunks.push(cur);
  return chunks;
}

const joinSegments = (chunk: Segment[]) =>
  chunk.map((s, i) => (i === 0 ? '' : s.join) + s.text).join('');
