/**
 * OCR shares the reader's time limit with the rest of the document. Rather than let a long scan
 * fail as a whole at the limit, a page is only started while there is time for it (the slowest
 * page so far, twice, plus a margin); the pages after that are left unread and the result says
 * `truncated`.
 */
export class OcrBudget {
  private readonly deadline: number;
  private slowest = 0;

  constructor(
    timeLimitMs: number,
    private readonly marginMs = 1000,
  ) {
    this.deadline = Date.now() + timeLimitMs;
  }

  allows(): boolean {
    return Date.now() + 2 * this.slowest + this.marginMs < this.deadline;
  }

  async time<T>(work: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      return await work();
    } finally {
      this.slowest = Math.max(this.slowest, Date.now() - start);
    }
  }
}
