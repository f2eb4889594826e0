import type { JobQueue } from './job-queue';

/**
 * The queue of a single process (SQLite): "a job is ready" messages in memory, `concurrency` at a
 * time. Each message lets the consumer start the next job in turn between owners (which job is
 * chosen from the job table: job-turns.repo.ts), so messages are not deduplicated. What it held
 * when the process stopped is found again in the job table at start-up.
 */
export class LocalJobQueue implements JobQueue {
  /** `onError`: what a run that rejected is told to (runs catch their own faults: a last guard). */
  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  private readonly waiting: string[] = [];
  private running = 0;
  private concurrency = 0;
  private run?: (jobId: string) => Promise<void>;
  private closed = false;

  async enqueue(jobId: string) {
    this.waiting.push(jobId);
    this.pump();
    return undefined;
  }

  async consume(concurrency: number, run: (jobId: string) => Promise<void>) {
    this.concurrency = concurrency;
    this.run = run;
    this.pump();
  }

  async stopTaking() {
    this.run = undefined;
  }

  async isPending() {
    // No message ids: the single process finds its queued jobs in the table at start-up.
    return true;
  }

  async close() {
    this.closed = true;
    this.waiting.length = 0;
  }

  private pump() {
    while (!this.closed && this.run && this.running < this.concurrency && this.waiting.length) {
      const id = this.waiting.shift()!;
      this.running += 1;
      void this.run(id)
        .catch(this.onError)
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }
}
