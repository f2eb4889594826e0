import { languageRules, type LanguageRules } from './languages';

/**
 * The terms of a text for matching, in a language's rules: words found by `Intl.Segmenter`
 * (ICU's dictionaries cut Thai, Lao, Khmer, Burmese, Chinese and Japanese, which have no spaces
 * between words), lower-cased, stop words dropped, stemmed (Snowball) and stripped of diacritics
 * where the language allows. Chinese, Japanese and Korean words become overlapping character
 * pairs, so a question's word still matches when the segmenter cut the passage differently.
 */
const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(code: string): Intl.Segmenter {
  let s = segmenters.get(code);
  if (!s) {
    s = new Intl.Segmenter(code === 'und' ? 'en' : code, { granularity: 'word' });
    segmenters.set(code, s);
  }
  return s;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A letter of the scripts whose combining marks are accents, not letters (Devanagari's are). */
const ACCENTED_LETTER =
  '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{Script=Arabic}\\p{Script=Hebrew}]';
/** Only a word with such a letter can have accents to fold. */
const ACCENTED_SCRIPT = new RegExp(ACCENTED_LETTER, 'u');
/** Those letters' combining marks, folded away. */
const ACCENTS = new RegExp(`(${ACCENTED_LETTER})\\p{Mn}+`, 'gu');

export function foldDiacritics(word: string): string {
  // Normalizing costs more than the test (Thai, Hindi or Chinese words have nothing to fold).
  if (!ACCENTED_SCRIPT.test(word)) return word;
  return word.normalize('NFD').replace(ACCENTS, '$1').normalize('NFC').replace(/ς/g, 'σ');
}

/** Runs of letters, marks and digits: the words of scripts that put spaces between words. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Scripts written without spaces between words: ICU's dictionaries find the words. */
const UNSPACED =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Stems of words already seen (Snowball costs ~10 µs a word; texts repeat their words). */
const stems = new Map<string, string>();

export function analyze(text: string, rules: LanguageRules = languageRules(undefined)): string[] {
  const out: string[] = [];
  const lower = rules.code === 'tr' ? text.toLocaleLowerCase('tr') : text.toLowerCase();
  for (const [run] of lower.normalize('NFC').matchAll(WORD)) {
    if (!UNSPACED.test(run)) {
      addWord(run, rules, out);
      continue;
    }
    // Segmenting only these runs: ICU's word breaking costs ~20 µs a word and grows faster than
    // the text, so whole documents are never given to it.
    for (const { segment, isWordLike } of segmenter(rules.code).segment(run))
      if (isWordLike) addWord(segment, rules, out);
  }
  return out;
}

function addWord(word: string, rules: LanguageRules, out: string[]): void {
  const ascii = !/[^ -~]/.test(word);
  const folded = rules.foldDiacritics && !ascii ? foldDiacritics(word) : word;
  if (rules.stopwords.has(word) || rules.stopwords.has(folded)) return;
  if (CJK.test(word)) return pushPairs(word, out);
  if (!rules.stem) return void out.push(folded);
  const key = `${rules.code}:${word}`;
  let stem = stems.get(key);
  if (stem === undefined) {
    stem = rules.stem(word);
    if (rules.foldDiacritics && !ascii) stem = foldDiacritics(stem);
    if (stems.size >= 500_000) stems.clear();
    stems.set(key, stem);
  }
  out.push(stem);
  const head = rules.compoundHead?.(folded);
  if (head !== undefined && head !== stem) out.push(head);
}

function pushPairs(word: string, out: string[]): void {
  const chars = [...word];
  if (chars.length === 1) out.push(word);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}
