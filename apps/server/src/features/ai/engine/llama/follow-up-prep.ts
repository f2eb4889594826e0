import type { ChatWrapper, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { ChatTurn } from '../../language-model';
import { EVALUATION_PRIORITY } from './batch-priority';
import { promptTokens } from './prompt-reuse';
import { systemMessage } from './system-prefix';

/** Tokens evaluated in one step: a call that arrives meanwhile waits for one step at most. */
export const PREP_STEP_TOKENS = 32;

/**
 * The tokens every follow-up's prompt starts with: the conversation so far with this reply in it,
 * up to where the next question's text begins (the common start of two prompts that differ only
 * in their question).
 */
export function followUpStart(
  model: Pick<LlamaModel, 'tokenizer'>,
  chatWrapper: ChatWrapper,
  turns: ChatTurn[],
  reply: string,
): Token[] {
  const next = (question: string) =>
    promptTokens(model, chatWrapper, [
      ...turns,
      { role: 'assistant', content: reply },
      { role: 'user', content: question },
    ]);
  const [a, b] = [next('a'), next('b')];
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}

export interface PrepEngine {
  model: Pick<LlamaModel, 'tokenizer'>;
  chatWrapper: ChatWrapper;
  /** Cuts a sequence back to its first `keep` tokens (SequenceCuts). */
  cut(sequence: LlamaContextSequence, keep: number): Promise<void>;
  /** Takes a free sequence back from the pool if it still keeps `owner`'s conversation. */
  takeBack(sequence: LlamaContextSequence, owner: string, system: string | undefined): boolean;
}

interface Prep {
  sequence: LlamaContextSequence;
  turns: ChatTurn[];
  reply: string;
  /** The follow-up's start, tokenized once (two whole-prompt tokenizations) and kept on pause. */
  start?: Token[];
}

/**
 * Readies a person's kept conversation for their follow-up while they read the reply.
 *
 * The sequence holds the reply as the model generated it, but the follow-up's prompt carries the
 * reply as stored text, tokenized anew: where the two differ (text that does not tokenize back to
 * the tokens that made it: a random model's stray bytes always, a real model's odd splits at
 * times), the follow-up evaluated the whole reply again before its question; and it always
 * evaluated the template's end-of-reply and start-of-question tokens. Here the sequence is cut to
 * what it shares with the follow-up's start and the rest evaluated ahead, a few tokens at a time
 * and only while no other call generates or waits, so nobody's reply waits for it. Another call
 * pauses it (the sequence goes back to the pool, still kept for the person) until the engine is
 * quiet again (resume); the person's own next call ends it (settle) and evaluates what is left.
 */
export class FollowUpPrep {
  private readonly running = new Map<string, { stop: () => void; done: Promise<void> }>();
  private readonly paused = new Map<string, Prep>();

  /** `busy`: whether another call generates or waits for a sequence (the preparation yields). */
  constructor(private readonly busy: () => boolean) {}

  /** Ends `owner`'s preparation, if any, and waits until its sequence is back in the pool. */
  async settle(owner: string | undefined): Promise<void> {
    if (owner === undefined) return;
    this.paused.delete(owner);
    const prep = this.running.get(owner);
    if (!prep) return;
    prep.stop();
    await prep.done;
  }

  /** Where `owner`'s preparation is (tests). */
  state(owner: string): 'preparing' | 'paused' | 'none' {
    return this.running.has(owner) ? 'preparing' : this.paused.has(owner) ? 'paused' : 'none';
  }

  /** Resolves once `owner`'s preparation has ended or paused, without stopping it (tests). */
  async prepared(owner: string): Promise<void> {
    await this.running.get(owner)?.done;
  }

  /**
   * Prepares `sequence` (kept for `owner`, who was just given `reply` to `turns`); resolves, never
   * rejects, once the sequence may go back to the pool: done, paused or stopped.
   */
  prepare(
    engine: PrepEngine,
    sequence: LlamaContextSequence,
    owner: string,
    turns: ChatTurn[],
    reply: string,
  ): Promise<void> {
    return this.begin(engine, owner, { sequence, turns, reply });
  }

  /** Runs `prep` for `owner` (a new one, or a paused one going on with what it computed). */
  private begin(engine: PrepEngine, owner: string, prep: Prep): Promise<void> {
    let stopped = false;
    const done = this.run(engine, prep, () => stopped)
      .then((finished) => {
        if (!finished && !stopped) this.paused.set(owner, prep);
      })
      .catch(() => {})
      .finally(() => {
        if (this.running.get(owner)?.done === done) this.running.delete(owner);
      });
    this.running.set(owner, { stop: () => (stopped = true), done });
    return done;
  }

  /** The engine is quiet: paused preparations go on where their sequences are still kept. */
  resume(engine: PrepEngine, release: (sequence: LlamaContextSequence) => void) {
    for (const [owner, prep] of this.paused) {
      if (this.busy()) return;
      this.paused.delete(owner);
      if (!engine.takeBack(prep.sequence, owner, systemMessage(prep.turns))) continue;
      void this.begin(engine, owner, prep).then(() => release(prep.sequence));
    }
  }

  /** Whether the sequence holds the whole start of the follow-up (false: paused or stopped). */
  private async run(engine: PrepEngine, prep: Prep, stopped: () => boolean): Promise<boolean> {
    // The call's own end (its sequence's release, the next call's start) goes first.
    await new Promise((resolve) => setImmediate(resolve));
    if (prep.reply === '') return true;
    const { sequence } = prep;
    prep.start ??= followUpStart(engine.model, engine.chatWrapper, prep.turns, prep.reply);
    const tokens = prep.start;
    let next = Math.min(sequence.compareContextTokens(tokens).firstDifferentIndex, tokens.length);
    if (next >= tokens.length) return true;
    if (stopped() || this.busy()) return false;
    // What follows the shared start (the reply as generated) is never part of a follow-up.
    await engine.cut(sequence, next);
    while (next < tokens.length) {
      if (stopped() || this.busy()) return false;
      const step = tokens.slice(next, next + PREP_STEP_TOKENS);
      await sequence.evaluateWithoutGeneratingNewTokens(step, {
        evaluationPriority: EVALUATION_PRIORITY.batch,
      });
      next += step.length;
    }
    return true;
  }
}
