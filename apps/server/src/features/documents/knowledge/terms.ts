import { READER_VERSION } from '../../files';
import { detectLanguage } from '../retrieval/detect-language';
import { languageRules } from '../retrieval/languages';
import { analyze } from '../retrieval/terms';

/**
 * What built a file's place in the index: the reader of its text and the revision of the terms'
 * rules (raise it when a language's terms change: 1, Turkish words cut to five letters; 2, German
 * compounds' first six letters too). A file indexed by an older one is indexed again in the
 * background (indexer.ts), and a single-file ask reads its text meanwhile (stored-file-source.ts).
 */
export const INDEX_VERSION = READER_VERSION * 100 + 2;

/**
 * The index's terms: the single-file ask's language-aware terms (documents/retrieval/terms.ts:
 * ICU word breaks for Thai and Chinese, Snowball stems, stop words), each hashed to 11 ASCII
 * characters, so neither SQLite's FTS5 tokenizer nor PostgreSQL's tsvector ever cuts or folds
 * them differently (Thai vowel marks, Devanagari signs). 53-bit hashes: a collision among a
 * million distinct terms has odds of about one in ten billion.
 */
export function hashTerm(term: string): string {
  // cyrb53 (public domain): two 32-bit multiply-xor lanes.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const n = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return n.toString(36).padStart(11, '0');
}

/** What cuts a text into the runs of letters, marks and digits terms.ts analyses. */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
/** A run's hashed terms, joined by spaces, and their number. */
interface RunTerms {
  joined: string;
  count: number;
}
/**
 * Hashed terms of runs already seen, a map per language: texts repeat their words, and each
 * costs ~4 µs to analyse.
 */
const runs = new Map<string, Map<string, RunTerms>>();
let cached = 0;
const CACHE_LIMIT = 500_000;

function runTerms(run: string, rules: ReturnType<typeof languageRules>): RunTerms {
  const terms = analyze(run, rules).map(hashTerm);
  return { joined: terms.join(' '), count: terms.length };
}

/**
 * A text's hashed terms in a language's rules, in order (repeats kept: BM25 counts them), joined
 * by spaces as the index stores them, and their number. The same as analyze(text) run by run
 * (analyze cuts the lower-cased text into these runs first), with each short run's terms
 * remembered.
 */
export function indexTermsJoined(
  text: string,
  language: string,
): { joined: string; count: number } {
  const rules = languageRules(language);
  const lower = rules.code === 'tr' ? text.toLocaleLowerCase('tr') : text.toLowerCase();
  let seen = runs.get(rules.code);
  if (!seen) runs.set(rules.code, (seen = new Map()));
  const parts: string[] = [];
  let count = 0;
  for (const run of lower.normalize('NFC').split(NOT_WORD)) {
    if (!run) continue;
    let terms = run.length > 24 ? undefined : seen.get(run);
    if (!terms) {
      terms = runTerms(run, rules);
      if (run.length <= 24) {
        if (++cached > CACHE_LIMIT) {
          runs.clear();
          cached = 0;
          runs.set(rules.code, (seen = new Map()));
        }
        seen.set(run, terms);
      }
    }
    if (terms.count === 0) continue;
    parts.push(terms.joined);
    count += terms.count;
  }
  return { joined: parts.join(' '), count };
}

/** A text's hashed terms in a language's rules, in order (indexTermsJoined, one by one). */
export function indexTerms(text: string, language: string): string[] {
  const { joined } = indexTermsJoined(text, language);
  return joined ? joined.split(' ') : [];
}

export interface QuestionTerms {
  /** The question's language as the detector sees it ('' when unsure). */
  language: string;
  /** Its distinct hashed terms, in its own language's rules and in those of the files asked. */
  terms: string[];
}

/**
 * A question's terms. Each passage was cut into terms by its file's language rules, so the
 * question is too, in each language the asked files are written in, and in its own: an English
 * question stems as English for English files, a Thai one is segmented as Thai.
 */
export function questionTerms(question: string, fileLanguages: string[]): QuestionTerms {
  const language = detectLanguage(question);
  const terms = new Set<string>();
  for (const lang of new Set([language, ...fileLanguages]))
    for (const t of indexTerms(question, lang)) terms.add(t);
  return { language: languageRules(language).code, terms: [...terms] };
}
