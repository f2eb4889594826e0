/**
 * Sentence splitting for the extractive step. A period ends a sentence only when it is followed by
 * a space and what follows could start one, and the word before it is not an abbreviation
 * ("Dr.", "e.g.", "U.S."), an initial ("J. Smith") or a list number at the start ("1. First").
 * Numbers ("3.14", "1,000.50") never split because the period is not followed by a space.
 * CJK full stops always end a sentence. Blank lines always do; a single line break does when the
 * line before is short or the next line starts a list item (slides, bullet lists), and is read
 * as a space otherwise (a pdf line wrapped mid-sentence).
 */

/** Abbreviations after which a period never ends the sentence. Lower case, without the last dot. */
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st mt ft rev gen col capt lt sgt gov sen hon ' +
    'e.g i.e cf vs al approx dept jan feb apr jun jul aug sept oct nov dec mon tue thu fri ' +
    'z.b bzw ggf usw vgl mme mlle'
  ).split(' '),
);
/** Abbreviations that stand before a number ("No. 5", "p. 12", "Fig. 3", "ca. 1900"). */
const NUMBER_ABBREVIATIONS = new Set(
  'no nos nr p pp vol vols fig figs ch sec art para ca eq ref'.split(' '),
);
/** Abbreviations that also end sentences ("… and so on, etc. Then …"): split before a capital. */
const FINAL_ABBREVIATIONS = new Set(['etc', 'inc', 'ltd', 'co', 'corp', 'llc', 'plc', 'bros']);

const CJK_END = '。！？';
const TERMINATORS = '.!?…。！？';
/** Closing quotes and brackets that belong to the sentence they follow. */
const CLOSERS = '"\'”’»)]}';
/** White space other than single spaces (replacing every single space would copy the text). */
const UNTIDY_SPACE = /\s{2,}|[^\S ]/g;
const ENDS_WITH_TERMINATOR = /[.!?…。！？:]["'”’»)\]}]*$/;
const LIST_MARKER = /^\s*(?:[-–—•*▪◦·]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s/i;
/** A line at most this long, followed by a line break, ends its sentence (titles, bullets). */
const SHORT_LINE = 48;

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n[ \t]*\n/)) {
    for (const line of joinWrappedLines(block)) splitLine(line, out);
  }
  return out;
}

/** Lines of a block, with lines that were wrapped mid-sentence joined back together. */
function joinWrappedLines(block: string): string[] {
  if (!block.includes('\n')) return [block.replace(UNTIDY_SPACE, ' ').trim()]; // most paragraphs
  const lines = block
    .split('\n')
    .map((l) => l.replace(UNTIDY_SPACE, ' ').trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    const hardBreak =
      prev === undefined ||
      prev.length <= SHORT_LINE ||
      LIST_MARKER.test(line) ||
      ENDS_WITH_TERMINATOR.test(prev.slice(-8));
    if (hardBreak) out.push(line);
    else out[out.length - 1] = `${prev} ${line}`;
  }
  return out;
}

function splitLine(line: string, out: string[]): void {
  const terminators = /[.!?…。！？]/g;
  let start = 0;
  for (let m = terminators.exec(line); m; m = terminators.exec(line)) {
    // The whole run of terminators and closers ("?!", "...", '."') belongs to this sentence.
    let end = m.index + 1;
    while (end < line.length && (TERMINATORS + CLOSERS).includes(line[end]!)) end++;
    if (endsSentence(line, start, m.index, end)) {
      push(out, line.slice(start, end));
      start = end;
    }
    terminators.lastIndex = end;
  }
  push(out, line.slice(start));
}

/**
 * Whether the terminator at `at` (its run ending at `end`) ends the sentence begun at `start`.
 * Lines have their white space collapsed to single spaces.
 */
function endsSentence(line: string, start: number, at: number, end: number): boolean {
  if (CJK_END.includes(line[at]!)) return true;
  if (end >= line.length) return true;
  if (line[end] !== ' ') return false; // "3.14", "e.g.", "example.com", "a?b"
  const next = line[end + 1] ?? '';
  const startsSentence = !isLowerCase(next); // capital, digit, quote, bracket, other script
  if (line[at] !== '.' || line[at + 1] === '.') return startsSentence;
  const wordStart = Math.max(start, line.lastIndexOf(' ', at - 1) + 1);
  const word = line.slice(wordStart, at);
  const bare = word.replace(/^["'“‘«([{]+/, '').toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  if (NUMBER_ABBREVIATIONS.has(bare) && /\d/.test(next)) return false;
  if (/^\p{L}$/u.test(bare)) return false; // an initial: "J. Smith"
  if (/^(\p{L}\.)+\p{L}$/u.test(bare)) return false; // "U.S", "a.m", "Ph.D"
  // A list number or numeral opening the sentence: "1. First", "IV. Results".
  if (line.slice(start, wordStart).trim() === '' && /^(\d{1,3}|[ivxlc]{1,5})$/i.test(bare))
    return false;
  if (FINAL_ABBREVIATIONS.has(bare)) return /\p{Lu}/u.test(next);
  return startsSentence;
}

/** Sentences longer than this many characters are cut at a space (a table row, a run-on list). */
export const MAX_SENTENCE_CHARS = 600;

function push(out: string[], raw: string): void {
  let s = raw.trim();
  while (s.length > MAX_SENTENCE_CHARS) {
    const space = s.lastIndexOf(' ', MAX_SENTENCE_CHARS);
    const cut = space > MAX_SENTENCE_CHARS / 2 ? space : MAX_SENTENCE_CHARS;
    out.push(s.slice(0, cut).trim());
    s = s.slice(cut).trim();
  }
  if (s) out.push(s);
}

/** A text as one sentence, or several when it is longer than MAX_SENTENCE_CHARS. */
export function cutLong(text: string): string[] {
  const out: string[] = [];
  push(out, text.replace(UNTIDY_SPACE, ' '));
  return out;
}

function isLowerCase(ch: string): boolean {
  if (ch >= 'a' && ch <= 'z') return true;
  return ch > '\x7f' && /\p{Ll}/u.test(ch);
}
