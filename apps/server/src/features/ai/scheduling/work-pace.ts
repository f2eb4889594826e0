/**
 * How long one more model call of a piece of work takes, learnt from this work's own calls: the
 * time its prompts took per token (the real prompt speed, cached prefixes included) and the time
 * its replies took (the real reply speed times the reply lengths this work produced). A
 * summary's parts are alike, a translation's replies follow its parts: what this work did so far
 * says more about its next call than the model's speed on everyone's calls.
 */
export interface CallFacts {
  promptTokens: number;
  maxTokens: number;
}

/** What is measured when a call ends (absent when it produced nothing). */
export interface CallOutcome {
  replyTokens: number;
  /** From the start of the call to its first piece: the prompt's evaluation. */
  firstPieceMs: number;
}

export class WorkPace {
  private calls = 0;
  private ranMs = 0;
  /** Of the calls whose outcome is known: their prompts, prompt times, reply tokens and times. */
  private measured = 0;
  private promptTokens = 0;
  private promptMs = 0;
  private replyTokens = 0;
  private replyMs = 0;
  /** Prompt sizes of every call that started (running ones too): the next is like them. */
  private startedPrompts = 0;
  private started = 0;

  /** Calls of this work that ended. */
  get finished(): number {
    return this.calls;
  }

  callStarted(facts: CallFacts | undefined) {
    if (!facts) return;
    this.started += 1;
    this.startedPrompts += facts.promptTokens;
  }

  callEnded(facts: CallFacts | undefined, ranMs: number, outcome?: CallOutcome) {
    this.calls += 1;
    this.ranMs += ranMs;
    if (!facts || !outcome) return;
    this.measured += 1;
    this.promptTokens += facts.promptTokens;
    this.promptMs += Math.min(outcome.firstPieceMs, ranMs);
    this.replyTokens += outcome.replyTokens;
    this.replyMs += Math.max(0, ranMs - outcome.firstPieceMs);
  }

  /**
   * Milliseconds of one more call with a prompt of `promptTokens` (the average of this work's
   * prompts when not given), or null before any call of this work ended.
   */
  callMs(promptTokens?: number): number | null {
    if (this.measured === 0) return this.calls > 0 ? this.ranMs / this.calls : null;
    const prompt = promptTokens ?? this.averagePrompt();
    const perPromptToken = this.promptTokens > 0 ? this.promptMs / this.promptTokens : 0;
    const promptPart =
      this.promptTokens > 0 ? prompt * perPromptToken : this.promptMs / this.measured;
    return promptPart + this.replyMs / this.measured;
  }

  /** Average reply tokens of this work's calls, null before any ended. */
  averageReplyTokens(): number | null {
    return this.measured > 0 ? this.replyTokens / this.measured : null;
  }

  private averagePrompt(): number {
    if (this.started > 0) return this.startedPrompts / this.started;
    return this.promptTokens / this.measured;
  }
}
