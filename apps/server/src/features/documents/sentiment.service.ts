import vader from 'vader-sentiment';
import type { SentimentLabel, SentimentResponse } from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import { documentPieces, splitParagraphs } from './chunking';
import { clamp, completeIfAvailable, contextOf, modelAvailable, type AiDeps } from './model-calls';
import type { ExtractResult } from '../files';
import { hasNamedTextColumn, pickTextColumn } from './text-column';

/**
 * Bulk sentiment: VADER scores each row (csv/xlsx, in the column that holds the text) or each
 * paragraph (other documents); the overall figure is the mean compound score. The model, when
 * there is one, only writes a short overview of the numbers and the most extreme items.
 */
const MAX_ITEMS = 20_000;
const ITEM_TEXT_CHARS = 1000;

export function label(compound: number): SentimentLabel {
  // VADER's own recommended thresholds.
  if (compound >= 0.05) return 'positive';
  if (compound <= -0.05) return 'negative';
  return 'neutral';
}

export function score(text: string) {
  const compound = vader.SentimentIntensityAnalyzer.polarity_scores(text).compound;
  return { label: label(compound), score: Math.round(compound * 10_000) / 10_000 };
}

export interface SentimentTexts {
  texts: { text: string; sheet?: string }[];
  column?: string;
  /** Each sheet's own column (xlsx): a sheet's column is picked from that sheet alone. */
  columns?: { sheet: string; column: string }[];
  /** The columns that may be asked for instead (every sheet's, once each). */
  column_choices?: string[];
}

/**
 * The texts to score: one per data row for tables, one per paragraph otherwise. Each sheet's
 * column is picked from that sheet alone (the one with the most words per cell, or the one named
 * `column`); when some sheets name their text column ("Comment"), sheets that name none (a cover
 * sheet saying "Prepared by Ada") are left out. A `column` no sheet has is a 400.
 */
export function sentimentTexts(doc: ExtractResult, column?: string): SentimentTexts {
  const withRows = doc.units.filter((u) => u.kind === 'sheet' && u.rows && u.rows.length > 0);
  const named = withRows.filter((u) => hasNamedTextColumn(u.rows!));
  const sheets = column !== undefined || named.length === 0 ? withRows : named;
  if (sheets.length > 0) {
    const texts: SentimentTexts['texts'] = [];
    const columns: { sheet: string; column: string }[] = [];
    const choices = new Set<string>();
    for (const sheet of sheets) {
      for (const name of pickTextColumn(sheet.rows!)?.names ?? []) choices.add(name);
      const pick = pickTextColumn(sheet.rows!, column);
      if (!pick) continue;
      columns.push({ sheet: sheet.label, column: pick.name });
      for (const row of sheet.rows!.slice(pick.dataStart)) {
        const cell = (row[pick.index] ?? '').trim();
        if (cell) texts.push({ text: cell, sheet: sheet.label });
      }
    }
    if (column !== undefined && columns.length === 0) {
      throw badRequest(`Unknown column "${column}". Columns: ${[...choices].join(', ')}`);
    }
    return { texts, column: columns[0]?.column, columns, column_choices: [...choices] };
  }
  if (column !== undefined) throw badRequest('Only a csv or xlsx table has columns to choose');
  const pieces = documentPieces(doc.units).map((p) => p.text);
  return { texts: (pieces.length ? pieces : splitParagraphs(doc.text)).map((text) => ({ text })) };
}

export async function analyzeSentiment(
  deps: AiDeps,
  doc: ExtractResult,
  chosenColumn?: string,
): Promise<SentimentResponse> {
  deps.progress?.stage('scoring');
  const { texts, column, columns, column_choices } = sentimentTexts(doc, chosenColumn);
  const scored = texts.slice(0, MAX_ITEMS).map((t) => ({ ...t, ...score(t.text) }));
  const mean = scored.reduce((s, i) => s + i.score, 0) / Math.max(1, scored.length);
  const overall = { label: label(mean), score: Math.round(mean * 10_000) / 10_000 };
  const items = scored.map((i) => ({ ...i, text: i.text.slice(0, ITEM_TEXT_CHARS) }));
  const facts = describe(items, overall);
  const plain = {
    response: `Automatic analysis (VADER, no AI model available): ${facts}`,
    overall,
    items,
    ai: false,
    column,
    columns,
    column_choices,
  };
  if (!modelAvailable(deps.ai) || items.length === 0) return plain;
  deps.progress?.stage('writing overview', 1);
  const extremes = [...items].sort((a, b) => a.score - b.score);
  const sample = [...extremes.slice(0, 5), ...extremes.slice(-5).reverse()]
    .filter((v, i, arr) => arr.indexOf(v) === i)
    .map((i) => `(${i.score}) ${i.text.slice(0, 300)}`)
    .join('\n');
  const response = await completeIfAvailable(
    deps,
    [
      { role: 'system', content: 'You write short, factual overviews of sentiment analyses.' },
      {
        role: 'user',
        content:
          `A sentiment analysis (VADER compound scores from -1 to 1) of ${items.length} ` +
          `items found: ${facts}\nMost negative and most positive items:\n${sample}\n\n` +
          'Write a short overview (3-5 sentences) of the overall sentiment and the main themes.',
      },
    ],
    clamp(Math.floor(contextOf(deps) / 8), 96, 400),
  );
  return response === null ? plain : { ...plain, response, ai: true };
}

function describe(
  items: { label: SentimentLabel }[],
  overall: { label: SentimentLabel; score: number },
): string {
  const n = (l: SentimentLabel) => items.filter((i) => i.label === l).length;
  return (
    `${items.length} item${items.length === 1 ? '' : 's'}: ${n('positive')} positive, ` +
    `${n('negative')} negative, ${n('neutral')} neutral. Overall ${overall.label} ` +
    `(mean score ${overall.score}).`
  );
}
