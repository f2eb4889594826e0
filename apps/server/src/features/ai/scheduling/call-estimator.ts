import type { WorkEstimates } from './work-progress';

/**
 * How long a model call takes, learnt from the calls that ran: prompt evaluation speed (prompt
 * tokens over the time to the first piece), generation speed (reply tokens over the rest) and how
 * much of its token allowance a reply uses. Moving averages, so a model that warms up or a
 * server that gets busier is followed within a few calls.
 */
export interface CallTiming {
  promptTokens: number;
  replyTokens: number;
  /** From the start of the call to its first piece. */
  firstPieceMs: number;
  /** From the first piece to the end. */
  generationMs: number;
  maxTokens: number;
}

const WEIGHT = 0.3;
/** Before anything was measured: what a 1.5B model does on a small CPU (issue 18's figures). */
const DEFAULTS = { promptPerSecond: 300, replyPerSecond: 25, replyShare: 0.5 };

export class CallEstimator {
  private promptPerSecond = DEFAULTS.promptPerSecond;
  private replyPerSecond = DEFAULTS.replyPerSecond;
  private replyShare = DEFAULTS.replyShare;
  private samples = 0;
  private callMs = 0;

  /** The average duration of the calls that ran; null before any. */
  averageCallMs(): number | null {
    return this.samples > 0 ? this.callMs : null;
  }

  estimateMs(promptTokens: number, maxTokens: number): number {
    return this.msFor(promptTokens, maxTokens * this.replyShare);
  }

  /**
   * How long a call of this size likely runs at most: its prompt, and a reply up to twice the
   * share of its allowance replies use on average (they spread from a few tokens to that), within
   * the allowance.
   */
  likelyLongestMs(promptTokens: number, maxTokens: number): number {
    return this.msFor(promptTokens, maxTokens * Math.min(1, 2 * this.replyShare));
  }

  /** What a work's progress asks of these measures, for a model of `capacity` calls at once. */
  workEstimates(capacity: number): WorkEstimates {
    return {
      callMs: () => this.averageCallMs(),
      capacity,
      estimateMs: (promptTokens, maxTokens) => this.estimateMs(promptTokens, maxTokens),
      likelyLongestMs: (promptTokens, maxTokens) => this.likelyLongestMs(promptTokens, maxTokens),
    };
  }

  /** A prompt's evaluation and a reply's generation at the measured speeds. */
  private msFor(promptTokens: number, replyTokens: number): number {
    return (promptTokens / this.promptPerSecond + replyTokens / this.replyPerSecond) * 1000;
  }

  observe(t: CallTiming) {
    this.samples += 1;
    const mix = (old: number, sample: number) =>
      this.samples === 1 ? sample : old + WEIGHT * (sample - old);
    // A prompt evaluated in under 5 ms says nothing (a cached prefix, or a tiny prompt).
    if (t.firstPieceMs > 5 && t.promptTokens > 0) {
      this.promptPerSecond = mix(this.promptPerSecond, t.promptTokens / (t.firstPieceMs / 1000));
    }
    if (t.generationMs > 5 && t.replyTokens > 1) {
      this.replyPerSecond = mix(this.replyPerSecond, t.replyTokens / (t.generationMs / 1000));
    }
    this.callMs = mix(this.callMs, t.firstPieceMs + t.generationMs);
    if (t.maxTokens > 0) {
      this.replyShare = mix(this.replyShare, Math.min(1, t.replyTokens / t.maxTokens));
    }
  }
}
