import type { ChatWrapper, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { ChatTurn } from '../../language-model';

/** The call's system message: what its kept tokens (and a sequence's score) are keyed by. */
export function systemMessage(turns: ChatTurn[]): string | undefined {
  return turns[0]?.role === 'system' ? turns[0].content : undefined;
}

/** System messages whose tokens are remembered (the chat's, each document action's, …). */
const REMEMBERED = 32;

/**
 * Prompt caching for the embedded model. Every chat starts with the same system message, and so
 * does every call of one document action (a long summary makes dozens): a sequence keeps those
 * tokens evaluated between requests, and node-llama-cpp skips evaluating them again when the next
 * prompt starts with them. On a CPU that prompt evaluation is most of the time to the first token.
 *
 * Only the system turn is kept, never a user's own turns: a kept conversation would let another
 * user's reply time reveal what someone asked. The kept tokens are checked against the sequence
 * before they stay; anything else clears it.
 */
export class SystemPrefix {
  private readonly known = new Map<string, Token[]>();

  constructor(
    private readonly model: Pick<LlamaModel, 'tokenizer'>,
    private readonly chatWrapper: ChatWrapper,
    /** Cuts a sequence to its first `keep` tokens (SequenceCuts: without waiting for other replies). */
    private readonly cut: (sequence: LlamaContextSequence, keep: number) => Promise<void> = (
      sequence,
      keep,
    ) =>
      keep === 0
        ? sequence.clearHistory()
        : sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]),
  ) {}

  /**
   * The tokens every prompt with this system message starts with, whatever follows: the common
   * start of two renderings that differ only in the user's text (so the chat template's own
   * tokens after the system turn are included, and no user text ever is).
   */
  tokens(system: string): Token[] {
    const seen = this.known.get(system);
    if (seen) return seen;
    const render = (user: string) =>
      this.chatWrapper
        .generateContextState({
          chatHistory: [
            { type: 'system', text: system },
            { type: 'user', text: user },
            { type: 'model', response: [] },
          ],
        })
        .contextText.tokenize(this.model.tokenizer);
    const a = render('a');
    const b = render('b');
    let n = 0;
    while (n < a.length && a[n] === b[n]) n++;
    const prefix = a.slice(0, n);
    if (this.known.size >= REMEMBERED) this.known.delete(this.known.keys().next().value!);
    this.known.set(system, prefix);
    return prefix;
  }

  /** Whether the sequence holds this system message's tokens already (a request there skips them). */
  holds(sequence: LlamaContextSequence, system: string | undefined): boolean {
    if (system === undefined) return false;
    const prefix = this.tokens(system);
    return prefix.length > 0 && startsWith(sequence, prefix);
  }

  /** After a request: the sequence keeps the system message's tokens and nothing after them. */
  async keepOnly(sequence: LlamaContextSequence, system: string | undefined): Promise<void> {
    const keep = system === undefined ? 0 : this.tokens(system).length;
    await this.cut(sequence, keep > 0 && this.holds(sequence, system) ? keep : 0);
  }
}

function startsWith(sequence: LlamaContextSequence, prefix: Token[]): boolean {
  return sequence.compareContextTokens(prefix).firstDifferentIndex >= prefix.length;
}

/**
 * Sequences that keep what a call evaluated (its whole prompt, and what it generated): a person's
 * conversation, so their follow-up costs only the new message, and an interrupted batch call, so
 * its retry costs only the tokens after them: node-llama-cpp reuses the longest common start of
 * the sequence and the new prompt. Kept only for the same owner: another owner's call first cuts the sequence back to its system
 * message (a reused prompt would let one user's timing reveal another's document).
 */
export class KeptWork<S extends LlamaContextSequence = LlamaContextSequence> {
  private readonly kept = new Map<S, { owner: string; system: string | undefined }>();

  constructor(private readonly prefix: Pick<SystemPrefix, 'keepOnly'>) {}

  keep(sequence: S, owner: string, system: string | undefined) {
    this.kept.set(sequence, { owner, system });
  }

  has(sequence: S) {
    return this.kept.has(sequence);
  }

  /**
   * Whether a call of this owner with this system message would resume on what the sequence
   * keeps (a person's document work does not take their kept conversation, nor the reverse).
   */
  resumes(sequence: S, owner: string | undefined, system?: string) {
    const entry = this.kept.get(sequence);
    return owner !== undefined && entry?.owner === owner && entry.system === system;
  }

  /** The sequence now serves `owner`'s call: another owner's kept tokens are cut. */
  async claim(sequence: S, owner: string | undefined): Promise<void> {
    const entry = this.kept.get(sequence);
    if (!entry) return;
    this.kept.delete(sequence);
    if (entry.owner !== owner) await this.prefix.keepOnly(sequence, entry.system);
  }
}

/** node-llama-cpp's copy of one sequence's evaluated state to another (llama.cpp's seq_cp). */
interface CopyableSequence {
  _copyStateFromOtherSequence?(other: unknown, upToTokenIndex: number): Promise<boolean>;
}

/**
 * Gives `sequence` the system message's evaluated tokens by copying them from another sequence
 * that holds them (a memory copy instead of evaluating them again: on a CPU, a fresh sequence's
 * system prompt cost more than the question). Only the system message is copied: the rest of the
 * source is cut from the copy. Uses node-llama-cpp's own internal copy (its decision context
 * uses it the same way); where it is missing or fails, the tokens are simply evaluated.
 */
export async function adoptSystemPrefix(
  prefix: SystemPrefix,
  sequence: LlamaContextSequence,
  system: string | undefined,
  others: readonly LlamaContextSequence[],
): Promise<boolean> {
  if (system === undefined || prefix.holds(sequence, system)) return false;
  const copy = (sequence as unknown as CopyableSequence)._copyStateFromOtherSequence;
  const source = others.find((s) => s !== sequence && prefix.holds(s, system));
  if (typeof copy !== 'function' || !source) return false;
  const length = prefix.tokens(system).length;
  const copied = await copy.call(sequence, source, length).catch(() => false);
  if (copied && prefix.holds(sequence, system) && sequence.nextTokenIndex === length) return true;
  await sequence.clearHistory();
  return false;
}
