import vader from 'vader-sentiment';
import type { SentimentLabel, SentimentResponse } from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import type { TextUnit } from '../files';
import { documentPieces, splitParagraphs } from './chunking';
import { hasNamedTextColumn, pickTextColumn } from './text-column';

/**
 * The CPU part of bulk sentiment (a CPU pool task, documents.cpu.ts): VADER scores each row
 * (csv/xlsx, in the column that holds the text) or each paragraph (other documents); the overall
 * figure is the mean compound score.
 */
const MAX_ITEMS = 20_000;
const ITEM_TEXT_CHARS = 1000;
/**
 * VADER reads at most this much of an item: a longer one is scored on its first words. Its
 * compound score has long saturated by then, and a 1 MB cell would cost seconds of VADER.
 */
const SCORED_TEXT_CHARS = 10_000;

function label(compound: number): SentimentLabel {
  // VADER's own recommended thresholds.
  if (compound >= 0.05) return 'positive';
  if (compound <= -0.05) return 'negative';
  return 'neutral';
}

/** The text VADER scores: all of it, or what ends at the last space within the bound. */
function scoredText(text: string): string {
  if (text.length <= SCORED_TEXT_CHARS) return text;
  const space = text.lastIndexOf(' ', SCORED_TEXT_CHARS);
  return text.slice(0, space > 0 ? space : SCORED_TEXT_CHARS);
}

function score(text: string) {
  const compound = vader.SentimentIntensityAnalyzer.polarity_scores(scoredText(text)).compound;
  return { label: label(compound), score: Math.round(compound * 10_000) / 10_000 };
}

interface SentimentTexts {
  texts: { text: string; sheet?: string }[];
  column?: string;
  /** Each sheet's own column (xlsx): a sheet's column is picked from that sheet alone. */
  columns?: { sheet: string; column: string }[];
  /** The columns that may be asked for instead (every sheet's, once each). */
  column_choices?: string[];
}

/** A document as the sentiment task gets it: its units, and its text for want of any. */
export interface SentimentDocument {
  units: TextUnit[];
  text: string;
}

/**
 * The texts to score: one per data row for tables, one per paragraph otherwise. Each sheet's
 * column is picked from that sheet alone (the one with the most words per cell, or the one named
 * `column`); when some sheets name their text column ("Comment"), sheets that name none (a cover
 * sheet saying "Prepared by Ada") are left out. A `column` no sheet has is a 400.
 */
function sentimentTexts(doc: SentimentDocument, column?: string): SentimentTexts {
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

export type SentimentScores = Omit<SentimentResponse, 'response' | 'ai'>;

/** Every item's score (the first MAX_ITEMS), their mean, and the columns read. */
export function sentimentScores(a: SentimentDocument & { column?: string }): SentimentScores {
  const { texts, column, columns, column_choices } = sentimentTexts(a, a.column);
  const items = texts.slice(0, MAX_ITEMS).map((t) => ({
    ...t,
    ...score(t.text),
    text: t.text.slice(0, ITEM_TEXT_CHARS),
  }));
  const mean = items.reduce((s, i) => s + i.score, 0) / Math.max(1, items.length);
  const overall = { label: label(mean), score: Math.round(mean * 10_000) / 10_000 };
  return { items, overall, column, columns, column_choices };
}
