import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import stopwordLists from 'stopword';

/**
 * What matching knows of a language (ISO 639-1 code, as the detector names it): its Snowball
 * stemmer (Orama's port) where there is one (Turkish: firstFive), its stop words (the
 * `stopword` package's lists, short ones that only drop function words), and whether diacritics
 * may be folded away.
 * Covers the 27 languages the product translates into (Mandarin is Chinese) and the others of
 * the XQuAD benchmark; Chinese, Japanese, Korean, Thai, Vietnamese, Estonian, Hebrew, Polish and
 * Tagalog have no stemmer (the first five need none; the library has none for the others).
 */
export interface LanguageRules {
  code: string;
  stem?: (word: string) => string;
  stopwords: Set<string>;
  /** False where accents tell words apart that readers do not confuse (Vietnamese tones). */
  foldDiacritics: boolean;
  /**
   * Languages that write compounds as one word: a long word's extra term, beside its stem, so
   * "Schmalspurbahnen" meets "Schmalspurschienen" (undefined: none for this word).
   */
  compoundHead?: (word: string) => string | undefined;
}

const HAS_DIGIT = /\p{N}/u;
const firstLetters = (word: string, n: number) => [...word].slice(0, n).join('');

/**
 * Turkish words are cut to their first five letters (fixed-prefix stemming, "F5": Can et al.,
 * "Information retrieval on Turkish texts", JASIST 2008, found it as good as a lemmatiser for an
 * agglutinative language). On XQuAD's 1,190 Turkish questions (bench/ask-files.bench.ts) the
 * answer's file came first for 94.1 % against 90.0 % with the Snowball stemmer, and the answer
 * reached the model for 96.1 % against 95.3 %. Numbers stay whole.
 */
const firstFive = (word: string) => (HAS_DIGIT.test(word) ? word : firstLetters(word, 5));

/**
 * German compounds ("Schmalspurbahnen" asked, "Schmalspurschienen" written; "Designtrend" and
 * "Design-Trend") were most of German's misses on XQuAD: a word of 10 letters or more also gives
 * its first six, a cheap stand-in for a dictionary decompounder (bench/ask-files.bench.ts).
 * Numbers give none.
 */
const firstSixOfLong = (word: string) =>
  word.length >= 10 && !HAS_DIGIT.test(word) ? firstLetters(word, 6) : undefined;

const COMPOUND_HEADS: Record<string, (word: string) => string | undefined> = {
  de: firstSixOfLong,
};

const STEMMERS: Record<string, (word: string) => string> = {
  ar: arabic,
  da: danish,
  nl: dutch,
  en: english,
  fi: finnish,
  fr: french,
  de: german,
  el: greek,
  hi: hindi,
  id: indonesian,
  it: italian,
  no: norwegian,
  nb: norwegian,
  pt: portuguese,
  ro: romanian,
  ru: russian,
  es: spanish,
  sv: swedish,
  tr: firstFive,
  uk: ukrainian,
};

/** ISO 639-1 → the `stopword` package's ISO 639-3 list name. */
const STOPWORD_LISTS: Record<string, string> = {
  ar: 'ara',
  zh: 'zho',
  da: 'dan',
  nl: 'nld',
  en: 'eng',
  et: 'est',
  fi: 'fin',
  fr: 'fra',
  de: 'deu',
  el: 'ell',
  he: 'heb',
  hi: 'hin',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  no: 'nob',
  nb: 'nob',
  pl: 'pol',
  pt: 'por',
  es: 'spa',
  sv: 'swe',
  tl: 'tgl',
  th: 'tha',
  tr: 'tur',
  uk: 'ukr',
  vi: 'vie',
  ru: 'rus',
  ro: 'ron',
  my: 'mya',
};

const NO_FOLDING = new Set(['vi']);

const cache = new Map<string, LanguageRules>();

/** The rules of a language; an unknown code gets none (words matched as written, folded). */
export function languageRules(code: string | undefined): LanguageRules {
  const key = code && (STEMMERS[code] || STOPWORD_LISTS[code]) ? code : 'und';
  let rules = cache.get(key);
  if (!rules) {
    const list = stopwordLists[STOPWORD_LISTS[key] ?? ''] ?? [];
    rules = {
      code: key,
      stem: STEMMERS[key],
      stopwords: new Set(list.map((w) => w.toLowerCase())),
      foldDiacritics: !NO_FOLDING.has(key),
      compoundHead: COMPOUND_HEADS[key],
    };
    cache.set(key, rules);
  }
  return rules;
}
