/**
 * OCR shares the reader's time limit with the rest of the document. Rather than let a long scan
 * fail as a whole at the limit, a page is only started while there is time for it (the slowest
 * page so far, twice, plus a margin), and a page still being read when the limit is near is given
 * up; the pages after that are left unread and the result says `truncated`.
 */
export class OcrBudget {
  private readonly deadline: number;
  private slowest = 0;
  /** True once a page was given up, or one was not started for want of time. */
  spent = false;

  constructor(
    timeLimitMs: number,
    private readonly marginMs = 1000,
  ) {
    this.deadline = Date.now() + timeLimitMs;
  }

  allows(): boolean {
    if (Date.now() + 2 * this.slowest + this.marginMs >= this.deadline) this.spent = true;
    return !this.spent;
  }

  /** The page's OCR, or undefined when it was given up at the deadline (less the margin). */
  async run<T>(work: () => Promise<T>): Promise<T | undefined> {
    const start = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      const wait = Math.max(0, this.deadline - this.marginMs - start);
      timer = setTimeout(() => resolve(undefined), wait);
    });
    const page = work();
    page.catch(() => {}); // given up, it may still fail later: nobody waits for it then
    try {
      const result = await Promise.race([page, late]);
      if (result === undefined) this.spent = true;
      return result;
    } finally {
      clearTimeout(timer);
      this.slowest = Math.max(this.slowest, Date.now() - start);
    }
  }
}
