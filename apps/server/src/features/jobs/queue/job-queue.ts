/**
 * Where jobs wait for a process to run them. The job's own row (jobs.repo.ts) holds its state;
 * the queue only says "a job is ready" to one of the processes consuming it, which then starts the
 * next job in turn between owners (job-turns.repo.ts): the message's job id is a hint only, so
 * one owner's flood of messages cannot put another owner's job behind it.
 * - PostgreSQL: pg-boss (pg-boss-job-queue.ts), shared by every app server and worker.
 * - SQLite: an in-process queue (local-job-queue.ts) over the same job table.
 */
export interface JobQueue {
  /** Hands a job to the queue (durably, with pg-boss); answers the queue's message id, if any. */
  enqueue(jobId: string): Promise<string | undefined>;
  /** Starts taking jobs, at most `concurrency` at once in this process, each given to `run`. */
  consume(concurrency: number, run: (jobId: string) => Promise<void>): Promise<void>;
  /** Stops taking jobs (the process is stopping); what is running goes on. */
  stopTaking(): Promise<void>;
  /** Whether the queue's message is still waiting or being worked on (false once it is gone). */
  isPending(queueId: string): Promise<boolean>;
  close(): Promise<void>;
}
