import type { LlamaContextSequence, Token } from 'node-llama-cpp';

/**
 * Cuts a sequence back to the tokens it keeps (its system message, or nothing) without waiting for
 * the other sequences' replies.
 *
 * node-llama-cpp's own cut (eraseContextTokenRanges, clearHistory) takes the context's lock, and
 * its decode loop holds that lock for as long as any sequence has tokens queued: while two replies
 * generate there is always one, so a cut — and with it the sequence's return to the pool, and any
 * chat that needed it — waited until every reply had ended (a third chat waited ~17 s for its
 * first token with 8 sequences). Here, while the context decodes, the cut runs inside that loop:
 * the batching strategy calls runPending() between two decodes, under the lock and with no decode
 * in flight, where removing a sequence's cells from the KV cache is safe. While nothing decodes,
 * the library's own cut runs at once.
 *
 * The in-loop cut does what the library's erase does for a range at the end of a sequence (the
 * only kind cut here), on the library's internal fields; where they are not as expected (another
 * version, token predictors, models that need checkpoints) it falls back to the library's cut.
 */
interface Job {
  sequence: LlamaContextSequence;
  keep: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class SequenceCuts {
  private pending: Job[] = [];

  /** `decoding`: whether the context may be decoding now (some call is generating). */
  constructor(private readonly decoding: () => boolean) {}

  /** Cuts `sequence` to its first `keep` tokens (0: empties it). The sequence must be idle. */
  cut(sequence: LlamaContextSequence, keep: number): Promise<void> {
    if (keep >= sequence.nextTokenIndex) return Promise.resolve();
    if (!this.decoding()) return libraryCut(sequence, keep);
    return new Promise((resolve, reject) => this.pending.push({ sequence, keep, resolve, reject }));
  }

  /** Cuts waiting for the decode loop (tests, metrics). */
  get waiting() {
    return this.pending.length;
  }

  /** From the batching strategy: under the context lock, between two decodes. */
  runPending() {
    if (this.pending.length === 0) return;
    for (const job of this.take()) {
      let done = false;
      try {
        done = cutBetweenDecodes(job.sequence, job.keep);
      } catch (err) {
        job.reject(err);
        continue;
      }
      if (done) job.resolve();
      else libraryCut(job.sequence, job.keep).then(job.resolve, job.reject);
    }
  }

  /** The context stopped decoding (the last call ended): cuts still waiting run through the library. */
  idle() {
    for (const job of this.take()) libraryCut(job.sequence, job.keep).then(job.resolve, job.reject);
  }

  private take() {
    const jobs = this.pending;
    this.pending = [];
    return jobs;
  }
}

function libraryCut(sequence: LlamaContextSequence, keep: number): Promise<void> {
  return keep === 0
    ? sequence.clearHistory()
    : sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
}

/** node-llama-cpp 3's internal state of a sequence, as its own erase changes it. */
interface SequenceInternals {
  _sequenceId: number;
  _contextTokens: Token[];
  _nextTokenIndex: number;
  _loadedTokenPredictions: unknown[];
  _tokenPredictor?: unknown;
  _checkpoints: { pruneFromEndToIndex(index: number): void };
  _context: {
    _ctx: {
      removeTokenCellsFromSequence(id: number, start: number, end: number): boolean;
      getSequenceKvCacheMinPosition(id: number): number;
      disposeSequence(id: number): void;
    };
  };
}

/**
 * The library's erase of the range [keep, end) of a sequence, done synchronously (the caller holds
 * the context lock between decodes). Returns false, changing nothing, where it cannot be done so.
 */
export function cutBetweenDecodes(sequence: LlamaContextSequence, keep: number): boolean {
  const s = sequence as unknown as Partial<SequenceInternals>;
  const ctx = s._context?._ctx;
  if (
    sequence.needsCheckpoints ||
    s._tokenPredictor != null ||
    typeof s._sequenceId !== 'number' ||
    typeof s._nextTokenIndex !== 'number' ||
    !Array.isArray(s._contextTokens) ||
    s._contextTokens.length !== s._nextTokenIndex ||
    !Array.isArray(s._loadedTokenPredictions) ||
    s._loadedTokenPredictions.length !== 0 ||
    typeof s._checkpoints?.pruneFromEndToIndex !== 'function' ||
    typeof ctx?.removeTokenCellsFromSequence !== 'function' ||
    typeof ctx.getSequenceKvCacheMinPosition !== 'function' ||
    typeof ctx.disposeSequence !== 'function'
  )
    return false;
  const end = s._nextTokenIndex;
  if (keep >= end) return true;
  // As the library: a cut that starts at or before the cache's first kept position (always so for
  // keep = 0) drops the sequence's cells altogether.
  const minPosition = Math.max(0, ctx.getSequenceKvCacheMinPosition(s._sequenceId));
  const removed = keep > minPosition && ctx.removeTokenCellsFromSequence(s._sequenceId, keep, end);
  if (removed) {
    s._contextTokens.splice(keep);
    s._nextTokenIndex = keep;
  } else {
    ctx.disposeSequence(s._sequenceId);
    s._contextTokens = [];
    s._nextTokenIndex = 0;
  }
  s._checkpoints.pruneFromEndToIndex(s._contextTokens.length - 1);
  return true;
}
