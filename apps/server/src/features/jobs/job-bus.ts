import { EventEmitter } from 'node:events';
import type { ProgressEvent } from '@inkwell/contract';

/**
 * News of the jobs this process runs, for the requests of this process that wait on them: the
 * moment a job moves or ends, without waiting for the database poll that covers jobs run
 * elsewhere (job-watch.ts).
 */
export type JobNews = { kind: 'progress'; progress: ProgressEvent } | { kind: 'ended' };

export class JobBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(jobId: string, news: JobNews) {
    this.emitter.emit(jobId, news);
  }

  subscribe(jobId: string, listener: (news: JobNews) => void): () => void {
    this.emitter.on(jobId, listener);
    return () => this.emitter.off(jobId, listener);
  }
}
