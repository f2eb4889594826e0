import type * as Tinyld from 'tinyld';
import { lazyRequire } from '../../../lib/lazy-require';

/** tinyld (its language profiles take ~0.1 s to load), at the first text to tell. */
const tinyld = lazyRequire<typeof Tinyld>('tinyld');
/** tinyld's guess of a text's language (ISO 639-1), '' when it cannot tell. */
export const detect = (text: string) => tinyld().detect(text);

/**
 * The main language of a document (ISO 639-1), from a few samples spread through it so a
 * title page or an English preface does not decide for the whole file; '' when unsure.
 */
export function detectLanguage(text: string, samples = 5, sampleChars = 2000): string {
  if (text.length <= samples * sampleChars) return detect(text);
  const votes = new Map<string, number>();
  const step = Math.floor((text.length - sampleChars) / (samples - 1));
  for (let i = 0; i < samples; i++) {
    const lang = detect(text.slice(i * step, i * step + sampleChars));
    if (lang) votes.set(lang, (votes.get(lang) ?? 0) + 1);
  }
  let best = '';
  let bestVotes = 0;
  for (const [lang, n] of votes) if (n > bestVotes) [best, bestVotes] = [lang, n];
  return best;
}
