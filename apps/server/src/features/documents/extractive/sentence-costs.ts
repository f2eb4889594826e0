import type { CountTokens } from '../chunking';
import type { Sentence } from './sections';

/**
 * What sentences cost in a prompt. Every sentence has an estimate (its share of its passage's
 * tokens, so the document is counted only once); the ones a selection takes or nearly takes are
 * counted exactly, which on a long document is a small fraction of them.
 */
export class SentenceCosts {
  private readonly counted: Float64Array;

  constructor(
    private readonly sentences: Sentence[],
    private readonly count: CountTokens,
  ) {
    this.counted = new Float64Array(sentences.length).fill(-1);
  }

  estimate(i: number): number {
    return this.sentences[i]!.cost;
  }

  /** Its tokens and the separator that joins it to the next sentence. */
  exact(i: number): number {
    if (this.counted[i]! < 0) this.counted[i] = this.count(this.sentences[i]!.text) + 1;
    return this.counted[i]!;
  }

  /** Whether it fits in `room`; one estimated at over twice the room is not counted. */
  fits(i: number, room: number): boolean {
    return this.estimate(i) <= 2 * room && this.exact(i) <= room;
  }

  sum(ids: number[]): number {
    return ids.reduce((s, i) => s + this.exact(i), 0);
  }
}
