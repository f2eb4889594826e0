import type { ReadyEngine } from './llama-state';
import { adoptSystemPrefix } from './system-prefix';

/**
 * While nothing generates, empty free sequences are given the people's system message, copied
 * from one that holds it, so a burst of chats finds them ready (a copy made during a reply would
 * wait for it).
 */
export class SequenceWarmer {
  private warming = false;

  /** `quiet`: whether nothing generates still (checked before each copy). */
  async warm(ready: ReadyEngine, system: string | undefined, quiet: () => boolean) {
    if (this.warming || system === undefined) return;
    this.warming = true;
    try {
      while (quiet()) {
        const sequence = ready.pool.takeFree((s) => s.nextTokenIndex === 0 && !ready.kept.has(s));
        if (!sequence) break;
        const copied = await adoptSystemPrefix(ready.prefix, sequence, system, ready.sequences)
          .catch(() => false)
          .finally(() => ready.pool.release(sequence));
        if (!copied) break;
      }
    } finally {
      this.warming = false;
    }
  }
}
