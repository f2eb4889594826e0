/**
 * What a document tells about its own words, read once per check: how often each word is written
 * exactly so, which capitalised words it writes inside sentences (names), and where sentences
 * start. Slides and lists start a sentence at every line; "Dr. Okonkwo" does not start one.
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.-][\p{L}\p{M}\p{N}]+)*/gu;
/** Titles and initials whose dot ends no sentence. */
const NOT_SENTENCE_END =
  /(?:^|[\s(])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Sr|Jr|St|Mt|Rev|Hon|Gen|Col|Capt|Lt|Sgt|Gov|Sen|Rep|Pres|No|Vol|Fig|vs|e\.g|i\.e|\p{Lu})\.$/u;
/** What may stand between a sentence's end (or a line's start) and its first word. */
const LEADING_MARKS = /[\s"'“‘«([{•▪◦·*–—‐-]+$/u;

export interface Word {
  text: string;
  start: number;
  end: number;
}

/** The words of `text` (letters and digits, with inner apostrophes, dots or hyphens). */
export function wordsOf(text: string, base = 0): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    out.push({ text: m[0], start: base + m.index, end: base + m.index + m[0].length });
  }
  return out;
}

export const isCapitalised = (word: string) => /^\p{Lu}[\p{Ll}\p{M}'’.-]*$/u.test(word);

/** Whether a sentence starts at `index`: at a line's start, or after . ! ? : (a title's dot aside). */
export function startsSentence(text: string, index: number): boolean {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const before = text.slice(Math.max(lineStart, index - 80), index);
  const rest = before.replace(LEADING_MARKS, '');
  if (rest === '') return true;
  const end = /[.!?:…]["'”’)\]]*$/u.exec(rest);
  if (!end) return false;
  return !NOT_SENTENCE_END.test(rest.slice(0, rest.length - end[0].length + 1));
}

export class DocumentWords {
  private readonly counts = new Map<string, number>();
  private readonly lowerCounts = new Map<string, number>();
  /** Capitalised words written inside a sentence somewhere in the document. */
  private readonly midSentence = new Set<string>();

  constructor(private readonly text: string) {
    for (const w of wordsOf(text)) {
      this.counts.set(w.text, (this.counts.get(w.text) ?? 0) + 1);
      const lower = w.text.toLowerCase();
      this.lowerCounts.set(lower, (this.lowerCounts.get(lower) ?? 0) + 1);
      if (isCapitalised(w.text) && !startsSentence(text, w.start)) this.midSentence.add(w.text);
    }
  }

  /** Times the document writes the word exactly so. */
  count(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  /** Times the document writes the word, in any case. */
  countAnyCase(word: string): number {
    return this.lowerCounts.get(word.toLowerCase()) ?? 0;
  }

  isNameElsewhere(word: string): boolean {
    return this.midSentence.has(word);
  }

  /** The word after `end` on the same line, if only spaces stand between. */
  nextWord(end: number): string | undefined {
    const m = /^[ \t]+([\p{L}\p{M}\p{N}]+)/u.exec(this.text.slice(end, end + 60));
    return m?.[1];
  }

  /** The sentence around `index` (bounded to a few hundred characters either side). */
  sentenceAround(index: number): { start: number; end: number } {
    const from = Math.max(0, index - 300);
    const back = this.text.slice(from, index);
    const b = Math.max(back.search(/[^.!?\n]*$/u), 0);
    const ahead = this.text.slice(index, index + 300);
    const f = ahead.search(/[.!?\n]/u);
    return { start: from + b, end: f < 0 ? index + ahead.length : index + f };
  }
}
