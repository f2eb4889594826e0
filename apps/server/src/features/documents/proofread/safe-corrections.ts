import type { ProofreadIssue, ProofreadKeptReason } from '@inkwell/contract';
import { detect, detectLanguage } from '../retrieval/detect-language';
import { DocumentWords, isCapitalised, startsSentence, wordsOf, type Word } from './document-words';
import type { HarperFinding } from './harper';

/**
 * Which of Harper's findings the corrected text applies. A spell checker's first suggestion is
 * right for a typo in an ordinary word and wrong for the words it does not know: names ("Asha" →
 * "Aha"), acronyms ("IHEP" → "Hep", "HBCUs" → "HBO's"), words in capitals, terms of the document,
 * words of another language. Those are kept as written, each with its reason; every finding
 * stays listed. A correction changes only what Harper flagged, so undoing one (the web app does)
 * puts back exactly `original`.
 */
export interface SafetyOptions {
  /** The user's personal dictionary: kept whatever their case. */
  dictionary?: readonly string[];
}

/** "Several times as written": a word the document writes this often is one of its terms. */
export const DOCUMENT_TERM_USES = 3;
/** Acronyms are short: a longer word in capitals is a word in capitals ("EDUCTION"). */
const ACRONYM_MAX_LETTERS = 5;
/**
 * A sentence at least this full of words Harper does not know (and at least FOREIGN_MIN_UNKNOWN
 * of them), whose language is not the text's, is in another language.
 */
const FOREIGN_SHARE = 1 / 2;
const FOREIGN_MIN_UNKNOWN = 3;
/** Findings kept at most (in text order): a result stays a size a browser shows. */
export const MAX_ISSUES = 2000;

export interface SafeCorrections {
  issues: ProofreadIssue[];
  corrected: string;
}

export function safeCorrections(
  text: string,
  findings: HarperFinding[],
  options: SafetyOptions = {},
): SafeCorrections {
  const words = new DocumentWords(text);
  const dictionary = new Set((options.dictionary ?? []).map((w) => w.toLowerCase()));
  const language = detectLanguage(text);
  // Harper checks English: a text in another language keeps every word as written.
  const foreignText = language !== '' && language !== 'en';
  // Lower-case words Harper does not know: names and acronyms are unknown in any English text.
  const spellingStarts = findings
    .filter((f) => isSpelling(f) && /^[\p{Ll}'’-]+$/u.test(text.slice(f.start, f.end)))
    .map((f) => f.start);
  const ordered = [...findings]
    .sort((a, b) => a.start - b.start || b.end - a.end)
    .slice(0, MAX_ISSUES);
  const issues: ProofreadIssue[] = [];
  const parts: string[] = [];
  let cursor = 0;
  for (const f of ordered) {
    const original = text.slice(f.start, f.end);
    const base = {
      message: f.message,
      offset: f.start,
      length: f.end - f.start,
      suggestions: f.suggestions,
      rule: f.rule,
      original,
    };
    const replacement = chooseReplacement(f, original, words);
    const kept: ProofreadKeptReason | undefined =
      replacement === undefined
        ? 'no-suggestion'
        : f.start < cursor
          ? 'overlap'
          : foreignText
            ? 'other-language'
            : keptReason(text, f, replacement, { words, dictionary, language, spellingStarts });
    if (kept || replacement === undefined) {
      issues.push({ ...base, kept: kept ?? 'no-suggestion' });
      continue;
    }
    parts.push(text.slice(cursor, f.start), replacement);
    cursor = f.end;
    issues.push({ ...base, correction: replacement });
  }
  parts.push(text.slice(cursor));
  return { issues, corrected: parts.join('') };
}

const isSpelling = (f: HarperFinding) => /spell/i.test(f.rule);

/**
 * The replacement for a finding. For a misspelt word, Harper's suggestions ranked by how few
 * typing slips lead from them to what was written (a swap, a missing, extra or wrong letter),
 * then by whether the document itself writes them ("reserch" in a deck that says "research"),
 * then in Harper's order; a suggestion that adds an apostrophe ("repo's" for "repoos") goes after
 * one that does not.
 */
function chooseReplacement(
  f: HarperFinding,
  original: string,
  words: DocumentWords,
): string | undefined {
  const [first] = f.suggestions;
  // "the the": the word once, rather than a guess at what was meant ("that the").
  const repeated = /^([\p{L}'’]+)\s+\1$/iu.exec(original);
  if (repeated) return f.suggestions.find((s) => s === repeated[1]) ?? first;
  if (first === undefined || !isSpelling(f)) return first;
  const written = original.toLowerCase();
  const ranked = f.suggestions.map((s, index) => ({
    s,
    index,
    slips: typingSlips(written, s.toLowerCase()),
    apostrophe: /['’]/u.test(s) && !/['’]/u.test(original) ? 1 : 0,
    uses: words.countAnyCase(s),
  }));
  ranked.sort(
    (a, b) =>
      a.slips - b.slips ||
      a.apostrophe - b.apostrophe ||
      Number(b.uses > 0) - Number(a.uses > 0) ||
      a.index - b.index,
  );
  return ranked[0]!.s;
}

/** Damerau–Levenshtein distance (optimal string alignment): the typing slips between a and b. */
export function typingSlips(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

interface Context {
  words: DocumentWords;
  dictionary: ReadonlySet<string>;
  language: string;
  spellingStarts: number[];
}

function keptReason(
  text: string,
  f: HarperFinding,
  replacement: string,
  ctx: Context,
): ProofreadKeptReason | undefined {
  if (isCode(text, f.start, f.end)) return 'code';
  for (const word of wordsOf(text.slice(f.start, f.end), f.start)) {
    const reason = wordReason(text, word, f, ctx);
    if (reason) return reason;
    // A word Harper does not know (or would split: "typedef") that the document writes again and
    // again is one of its terms.
    if (/spell|typo/i.test(f.rule) && !/\s/u.test(text.slice(f.start, f.end))) {
      if (ctx.words.count(word.text) >= DOCUMENT_TERM_USES) return 'document-term';
    }
  }
  if (isSpelling(f) && inForeignSentence(text, f.start, ctx)) return 'other-language';
  if (/spell|typo/i.test(f.rule) && doubtful(text.slice(f.start, f.end), replacement)) {
    return 'uncertain';
  }
  return undefined;
}

/**
 * Whether a word Harper does not know is too far from its replacement to be a slip of the
 * fingers: more than one slip (two in words of seven letters or more), a short word changed other
 * than by a swap of two letters ("teh" is "the"; "desc" is no "desk", "vbs" no "abs"), or a
 * lower-case word made a name ("fatimi" → "Fatima").
 */
function doubtful(original: string, replacement: string): boolean {
  if (!/^[\p{L}'’-]+$/u.test(original)) return false;
  if (/^\p{Ll}/u.test(original) && /^\p{Lu}/u.test(replacement)) return true;
  const a = original.toLowerCase();
  const b = replacement.toLowerCase();
  const slips = typingSlips(a, b);
  if (Math.max(a.length, b.length) <= 4) return !(slips === 1 && sameLetters(a, b));
  return slips > (a.length <= 6 ? 1 : 2);
}

const sameLetters = (a: string, b: string) =>
  [...a.replace(/\s/gu, '')].sort().join('') === [...b.replace(/\s/gu, '')].sort().join('');

function wordReason(
  text: string,
  word: Word,
  f: HarperFinding,
  ctx: Context,
): ProofreadKeptReason | undefined {
  const w = word.text;
  if (ctx.dictionary.has(w.toLowerCase())) return 'dictionary';
  const core = w.replace(/['’]s$/u, '');
  const letters = core.replace(/[^\p{L}]/gu, '');
  // Q5, M0, mp3, COVID-19: a code or a name, never a misspelt word.
  if (/\p{N}/u.test(core) && letters.length > 0) return 'code';
  const stem = letters.replace(/s$/u, ''); // HBCUs: a plural s after capitals
  if (stem.length >= 2 && !/\p{Ll}/u.test(stem)) {
    return stem.length <= ACRONYM_MAX_LETTERS ? 'acronym' : 'all-caps';
  }
  // An upper-case letter after the first: PhD, iPhone, eBay, McKinsey.
  if (/\p{Ll}/u.test(letters) && /.\p{Lu}/u.test(letters)) return 'acronym';
  if (letters.length >= 2 && isCapitalised(core)) {
    // A capitalised word Harper does not know is a name (Asha, Nginx, Eurovision), wherever it
    // stands; nor is a name's case Harper's to change ("Github").
    if (isSpelling(f) || /capital/i.test(f.rule)) return 'name';
    if (!startsSentence(text, word.start)) return 'name';
    if (ctx.words.isNameElsewhere(core)) return 'name';
    // "Michelle Asha Cooper" at a line's start: the first name is followed by another.
    const next = ctx.words.nextWord(word.end);
    if (next && isCapitalised(next) && next.length >= 2) return 'name';
  }
  // Letters English does not use (educación, Straße) in an English text.
  if ((ctx.language === 'en' || ctx.language === '') && /[^a-zA-Z]/.test(letters)) {
    return 'other-language';
  }
  return undefined;
}

/** Part of an address, an e-mail, a path or a file name ("Samsrv.dll", "github.com/x"). */
function isCode(text: string, start: number, end: number): boolean {
  const before = /\S*$/u.exec(text.slice(Math.max(0, start - 200), start))?.[0] ?? '';
  const after = /^\S*/u.exec(text.slice(end, end + 200))?.[0] ?? '';
  const chunk = before + text.slice(start, end) + after;
  return /[/\\@_#<>=]|:\/\/|[\p{L}\p{N}]\.[\p{L}]{2,}/u.test(
    chunk.replace(/[.,;:!?)\]"'”’]+$/u, ''),
  );
}

/**
 * A sentence where many lower-case words are unknown to Harper and whose language is not the
 * text's: a quotation or a title in another language ("La educación es la llave del futuro").
 */
function inForeignSentence(text: string, index: number, ctx: Context): boolean {
  const { start, end } = ctx.words.sentenceAround(index);
  const count = wordsOf(text.slice(start, end)).length;
  const unknown = ctx.spellingStarts.filter((s) => s >= start && s < end).length;
  if (unknown < FOREIGN_MIN_UNKNOWN || unknown / count < FOREIGN_SHARE) return false;
  const lang = detect(text.slice(start, end));
  return lang !== '' && lang !== (ctx.language || 'en');
}
