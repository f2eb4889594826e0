import type { SentimentLabel, SentimentResponse } from '@inkwell/contract';
import { cpuPool } from '../../workers/cpu-pool';
import type { ExtractResult } from '../files';
import type { DocumentsCpuTasks } from './documents.cpu';
import { clamp, completeIfAvailable, contextOf, modelAvailable, type AiDeps } from './model-calls';

/**
 * Bulk sentiment: VADER scores each row or paragraph in the CPU pool (sentiment-scores.ts), off
 * the event loop: a large sheet is seconds of it. The model, when there is one, only writes a
 * short overview of the numbers and the most extreme items.
 */
export async function analyzeSentiment(
  deps: AiDeps,
  doc: ExtractResult,
  chosenColumn?: string,
): Promise<SentimentResponse> {
  deps.progress?.stage('scoring');
  const { items, overall, column, columns, column_choices } =
    await cpuPool<DocumentsCpuTasks>().run(
      'sentimentScores',
      { units: doc.units, text: doc.text, column: chosenColumn },
      // The job's: a cancel ends the worker scoring it.
      { signal: deps.signal },
    );
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
