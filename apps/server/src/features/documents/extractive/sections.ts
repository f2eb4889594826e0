import { documentPieces, type CountTokens, type Piece } from '../chunking';
import type { TextUnit } from '../../files';
import { cutLong, splitSentences } from './sentences';

/**
 * A document as the extractive step sees it: sections (a pdf page, a slide, a sheet, or the text
 * under a heading of a docx or txt), each a run of sentences. Every sentence remembers the place
 * it came from (the chunker's label, e.g. "Page 3", "Paragraph 12", "Sheet1 row 40"), so what
 * is kept goes back to the model under the same references as a full read.
 */
export interface Sentence {
  text: string;
  /** Index into `passages`: the place (one label) the sentence belongs to. */
  passage: number;
  section: number;
  /**
   * Tokens it costs in a prompt: its share (by length) of its passage's tokens, so the document
   * is counted once, piece by piece, as the chunker counts it. An estimate for one sentence; the
   * selection counts what it keeps exactly.
   */
  cost: number;
  /** A heading, a slide title or a table's header row, kept as context for its section. */
  title: boolean;
}

export interface DocumentSentences {
  /** Labels of the places sentences come from, in reading order. */
  passages: string[];
  sentences: Sentence[];
  sections: number;
  /** Tokens of the whole document as the chunker counts them (each piece + a separator). */
  documentTokens: number;
}

/** A title longer than this is read as an ordinary sentence. */
const TITLE_MAX_TOKENS = 32;

export function documentSentences(units: TextUnit[], count: CountTokens): DocumentSentences {
  const passages: string[] = [];
  const sentences: Sentence[] = [];
  let section = -1;
  let documentTokens = 0;
  /** One passage: the sentences of `pieces` (one label), sharing out the pieces' tokens. */
  const add = (pieces: Piece[], texts: string[], title = false) => {
    const tokens = pieces.reduce((n, p) => n + count(p.text) + 1, 0);
    const chars = texts.reduce((n, t) => n + t.length + 1, 0);
    documentTokens += tokens;
    passages.push(pieces[0]!.label);
    for (const text of texts) {
      const cost = (tokens * (text.length + 1)) / chars;
      sentences.push({ text, passage: passages.length - 1, section, cost, title });
    }
  };
  const short = (text: string) => count(text) <= TITLE_MAX_TOKENS;

  for (const unit of units) {
    const pieces = documentPieces([unit]);
    if (pieces.length === 0) continue;
    if (unit.kind === 'paragraph') {
      // docx and txt: a heading opens a section (and is its title).
      for (const piece of pieces) {
        if (piece.boundary || section < 0) section += 1;
        if (piece.boundary && short(piece.text)) add([piece], [piece.text], true);
        else add([piece], splitSentences(piece.text));
      }
      continue;
    }
    section += 1;
    const [first, ...rest] = pieces as [Piece, ...Piece[]];
    if (unit.kind === 'sheet' || unit.kind === 'row') {
      // A table row is one record: cut only when very long, never at its inner full stops. The
      // header row says what the columns are.
      if (short(first.text)) add([first], [first.text], true);
      else add([first], cutLong(first.text));
      for (const row of rest) add([row], cutLong(row.text));
    } else if (unit.kind === 'slide' && short(first.text) && rest.length > 0) {
      add([first], [first.text], true);
      add(rest, splitSentences(rest.map((p) => p.text).join('\n')));
    } else {
      // A page's lines are one running text (sentences wrap from line to line).
      add(pieces, splitSentences(pieces.map((p) => p.text).join('\n')));
    }
  }
  untitleLoneTitles(sentences);
  return { passages, sentences, sections: section + 1, documentTokens };
}

/** A section that is nothing but its title (two headings in a row) is represented by it. */
function untitleLoneTitles(sentences: Sentence[]): void {
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    if (!s.title) continue;
    const next = sentences[i + 1];
    if (!next || next.section !== s.section) s.title = false;
  }
}
