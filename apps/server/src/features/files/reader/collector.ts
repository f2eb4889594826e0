import { DocumentReadError, type ExtractResult, type ReaderLimits, type TextUnit } from './types';

/**
 * Gathers units while enforcing the character cap and the deadline. Parsers call `check()` between
 * pages/rows so a slow document stops at the time limit instead of running on.
 */
export class Collector {
  readonly units: TextUnit[] = [];
  truncated = false;
  /** The time limit left part of it unread (see ExtractResult.timedOut). */
  timedOut = false;
  private chars = 0;
  private readonly deadline: number;

  constructor(readonly limits: ReaderLimits) {
    this.deadline = Date.now() + limits.timeLimitMs;
  }

  /** What is left of the reader's time limit. */
  timeLeftMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** Characters left under the cap. */
  get room(): number {
    return Math.max(0, this.limits.maxChars - this.chars);
  }

  check(): void {
    if (Date.now() > this.deadline) throw new DocumentReadError('it took too long to read');
  }

  /** Adds a unit; returns false once the character cap is reached (callers stop then). */
  add(unit: TextUnit): boolean {
    this.check();
    const room = this.limits.maxChars - this.chars;
    if (room <= 0) {
      this.truncated = true;
      return false;
    }
    const cut = unit.text.length > room;
    if (cut) {
      unit = { ...unit, text: unit.text.slice(0, room) };
      this.truncated = true;
    }
    this.chars += unit.text.length;
    this.units.push(unit);
    return !cut;
  }

  result(separator = '\n\n'): ExtractResult {
    return {
      text: this.units.map((u) => u.text).join(separator),
      units: this.units,
      truncated: this.truncated,
      ...(this.timedOut ? { timedOut: true } : {}),
    };
  }
}
