import type {
  ChatWrapper,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import type { ModelStatus } from '../../language-model';
import type { SequenceCuts } from './sequence-cuts';
import type { Pool } from './sequence-pool';
import type { KeptWork, SystemPrefix } from './system-prefix';

/** The loaded engine: one model, one context, its sequences and what they keep. */
export interface ReadyEngine {
  kind: 'ready';
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  pool: Pool<LlamaContextSequence>;
  sequences: LlamaContextSequence[];
  /**
   * Resolved once. LlamaChat's default ("auto") resolves it on every construction by rendering
   * the model's Jinja template against each built-in wrapper: 0.2-0.9 s per request on 2 cores.
   */
  chatWrapper: ChatWrapper;
  /** Keeps each sequence's system-message tokens evaluated between requests. */
  prefix: SystemPrefix;
  /** Sequences that keep an interrupted batch call's evaluated prompt, for its retry. */
  kept: KeptWork<LlamaContextSequence>;
  /** Cuts a used sequence back between two decodes instead of after every reply. */
  cuts: SequenceCuts;
  /** The class, from the lazily imported module. */
  Chat: typeof LlamaChat;
}

/** Where the embedded engine is between start-up and shutdown. */
export type EngineState =
  | { kind: 'starting' | 'loading' | 'closed' }
  | { kind: 'downloading'; fraction: number }
  | { kind: 'failed'; reason: string }
  | ReadyEngine;

/** The status the rest of the product sees for a state of the engine. */
export function statusOf(s: EngineState, name: string, nextRetryAt: Date | null): ModelStatus {
  switch (s.kind) {
    case 'ready':
      return { available: true, state: 'ready', name };
    case 'failed':
      return {
        available: false,
        state: 'unavailable',
        name,
        reason: s.reason,
        nextRetryAt: nextRetryAt ?? undefined,
      };
    case 'downloading':
      return {
        available: false,
        state: 'downloading',
        progress: s.fraction,
        name,
        reason: `the model is downloading (${Math.floor(s.fraction * 100)}%); try again when it is ready`,
      };
    case 'closed':
      return {
        available: false,
        state: 'unavailable',
        name,
        reason: 'the server is shutting down',
      };
    default:
      return {
        available: false,
        state: 'loading',
        name,
        reason: 'the model is loading; try again in a moment',
      };
  }
}
