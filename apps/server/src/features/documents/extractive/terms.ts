/**
 * The words a sentence is compared by: lower-cased letters and digits, without the commonest
 * English function words, with plural and possessive endings folded ("reports", "report's" →
 * "report"). Scripts written without spaces (Chinese, Japanese) give overlapping character pairs,
 * which is how their text is usually compared without a dictionary.
 */
const STOPWORDS = new Set(
  (
    'a an the and or but nor so yet for of to in on at by with from into onto upon about above ' +
    'below over under after before between through during without within against among as than ' +
    'then also too very just only not no this that these those there here where when which who ' +
    'whom whose what why how all any both each few more most other some such own same is are was ' +
    'were be been being am do does did doing have has had having will would shall should can ' +
    'could may might must it its it’s itself i me my we our us you your he him his she her they ' +
    'them their if else while because until again further once out off up down s t'
  ).split(' '),
);

const NON_WORD = /[^\p{L}\p{N}'’]+/u;
const WIDE = /[\u2e80-\u9fff\uf900-\ufaff\uff66-\uff9f]/;

/**
 * Term ids of sentences, shared by a whole document: each distinct word form is folded and
 * looked up once, then every later occurrence costs one map lookup (a long document repeats
 * its words thousands of times).
 */
export class TermIndex {
  /** Word form as written (lower-cased) → term id, or -1 for a stop word. */
  private readonly forms = new Map<string, number>();
  private readonly terms = new Map<string, number>();

  get size(): number {
    return this.terms.size;
  }

  /** Distinct term ids of a sentence, in order of first appearance. */
  idsOf(sentence: string): number[] {
    const out: number[] = [];
    const lower = sentence.toLowerCase();
    const wide = WIDE.test(lower);
    for (const raw of lower.split(NON_WORD)) {
      if (raw === '') continue;
      if (wide && WIDE.test(raw)) {
        const pairs: string[] = [];
        pushPairs(raw, pairs);
        for (const p of pairs) addOnce(out, this.term(p));
        continue;
      }
      let id = this.forms.get(raw);
      if (id === undefined) {
        const word = fold(raw);
        id = word && !STOPWORDS.has(word) ? this.term(word) : -1;
        this.forms.set(raw, id);
      }
      if (id >= 0) addOnce(out, id);
    }
    return out;
  }

  private term(word: string): number {
    let id = this.terms.get(word);
    if (id === undefined) {
      id = this.terms.size;
      this.terms.set(word, id);
    }
    return id;
  }
}

/** Sentences are short: a linear scan is cheaper than a set. */
function addOnce(ids: number[], id: number): void {
  if (!ids.includes(id)) ids.push(id);
}

function pushPairs(raw: string, out: string[]): void {
  for (let i = 0; i + 1 < raw.length; i++) out.push(raw.slice(i, i + 2));
  if (raw.length === 1) out.push(raw);
}

/** Possessive and plural endings folded, quotes around the word dropped. */
function fold(raw: string): string {
  let w = raw;
  if (w.includes("'") || w.includes('’')) {
    w = w.replace(/^['’]+|['’]+$/g, '').replace(/['’]s$/, '');
  }
  // Plurals, after Porter's step 1a: "classes" → "class", "boxes" → "box", "ponies" → "pony".
  const n = w.length;
  if (n > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (n > 4 && /(ss|x|ch|sh|zz)es$/.test(w)) return w.slice(0, -2);
  if (n > 3 && w.charCodeAt(n - 1) === 115 /* s */) {
    const before = w.charCodeAt(n - 2);
    if (before !== 115 && before !== 117 && before !== 105) return w.slice(0, -1); // not ss/us/is
  }
  return w;
}
