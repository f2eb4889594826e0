import { Worker, type Transferable } from 'node:worker_threads';
import { threadCpuMs, workerBootstrap } from './worker-thread';

/** Why a call failed, for the pool's owner to turn into its own kind of error. */
export type CallFailure =
  /** The worker module threw: its message, and its HTTP status when it had one. */
  | { kind: 'thrown'; message: string; status?: number }
  /** The worker itself failed (e.g. code ERR_WORKER_OUT_OF_MEMORY past its heap limit). */
  | { kind: 'crashed'; message: string; code?: string }
  | { kind: 'exited'; exitCode: number }
  /** The call passed its time limit; its worker was ended. */
  | { kind: 'timed out' };

/**
 * The niceness of workers whose work has no deadline of its own (audits, summary cutting,
 * proofreading, passages): under CPU contention the event loop runs first. Not for the document
 * reader, whose time limit is wall-clock.
 */
export const WORKER_NICENESS = 10;

export interface WorkerPoolOptions {
  /** Worker threads at most; each is started on first need and kept. */
  size: number;
  /** Each worker's old-generation heap limit: past it, the worker ends, not the process. */
  heapMb?: number;
  /**
   * Calls one worker is handed at once; more wait in the pool's queue. Infinity (the default)
   * hands every call over at once and lets it wait in its worker; 1 keeps a worker's time limit
   * or crash to its own call.
   */
  callsPerWorker?: number;
  /** The error a failed call rejects with. */
  failure?: (failure: CallFailure) => Error;
  /**
   * The workers' scheduling niceness (Linux: per thread): above 0, a core that the event loop and
   * a worker both want goes to the event loop first, so routing is not kept waiting by CPU work.
   */
  niceness?: number;
  /**
   * What a call's time limit counts. 'wall' (the default): time since the hand-over. 'cpu': the
   * CPU time of the worker's thread (Linux; wall time elsewhere), for niced workers: on a busy
   * machine they wait for a core, and a wait is not a runaway input. A call that uses no CPU
   * (stuck on I/O) still ends at CPU_LIMIT_WALL_CAP times its limit.
   */
  timeLimitCounts?: 'wall' | 'cpu';
}

/** With `timeLimitCounts: 'cpu'`, the wall-clock time a call may take, in times its limit. */
export const CPU_LIMIT_WALL_CAP = 10;

export interface CallOptions {
  /** Calls with the same route always go to the same worker (what it keeps is found again). */
  route?: string;
  /** From the hand-over: past it, the worker is ended (a parse is stopped for real). */
  timeoutMs?: number;
  /** Buffers moved to the worker instead of copied (unusable here afterwards). */
  transfer?: readonly Transferable[];
  /**
   * Stops the call: a waiting one leaves the queue; a running one's worker is ended (and replaced
   * on the next call) unless it holds other calls too. The call rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** What the call is, as `threads()` shows it. */
  label?: string;
}

interface Call {
  message: object;
  options: CallOptions;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** Where it runs, once handed to a worker. */
  sent?: { slot: Slot; id: number };
}

interface Slot {
  worker?: Worker;
  /** Its worker has loaded its module (said `ready`). */
  ready?: boolean;
  /** The worker thread's Linux thread id, once it has said it (for its CPU time). */
  tid?: number;
  pending: Map<number, { call: Call; timer?: NodeJS.Timeout }>;
}

/** A worker thread of the pool that has not ended yet, and the calls it runs. */
export interface PoolThread {
  threadId: number;
  calls: string[];
}

type Reply =
  | { id: number; result?: unknown; error?: string; status?: number; ready?: undefined }
  /** The first message of a worker on Linux: its thread id. */
  | { id?: undefined; tid: number; ready?: undefined }
  /** Its module has loaded. */
  | { id?: undefined; tid?: undefined; ready: true };

/**
 * Worker threads for CPU work the event loop must not do (document reading, audits, summary
 * cutting, passage indexing, proofreading). Workers are started when first needed and kept for
 * the next calls, with what they loaded. A worker that ends (crash, heap limit, time limit) fails
 * only the calls it held and is replaced on the next call; an idle one never keeps the process
 * alive. The worker module answers each `{ id, ...message }` with `{ id, result }` or
 * `{ id, error, status? }` (serveCalls, worker-thread.ts).
 */
export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Call[] = [];
  /** Every worker whose thread has not exited yet (an ended one may take a moment to go). */
  private readonly live = new Set<Worker>();
  private nextId = 1;
  /** Workers started so far: an ended worker is replaced, never reused. */
  started = 0;

  constructor(
    private readonly moduleUrl: URL,
    private readonly options: WorkerPoolOptions,
  ) {
    this.slots = Array.from({ length: options.size }, () => ({ pending: new Map() }));
  }

  call<R>(message: object, options: CallOptions = {}): Promise<R> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => this.abort(call, abortReason(signal!));
      const settled = () => signal?.removeEventListener('abort', onAbort);
      const call: Call = {
        message,
        options,
        resolve: (value) => {
          settled();
          resolve(value as R);
        },
        reject: (err) => {
          settled();
          reject(err);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(call);
      this.dispatch();
    });
  }

  /** The workers that have not ended (their thread is alive), with the labels of their calls. */
  threads(): PoolThread[] {
    return [...this.live].map((worker) => {
      const slot = this.slots.find((s) => s.worker === worker);
      const calls = slot ? [...slot.pending.values()] : [];
      return { threadId: worker.threadId, calls: calls.map((c) => c.call.options.label ?? '') };
    });
  }

  /** Ends every worker; calls in flight fail. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
  }

  /**
   * Ends the idle workers only: a process-wide pool serves every app of the process (tests run
   * two servers in one), so one app closing must not fail another's calls in flight. Busy
   * workers finish their calls and are unreferenced once idle.
   */
  async closeIdle(): Promise<void> {
    const idle = this.slots.filter((s) => s.worker && s.pending.size === 0);
    // Detached first: a call arriving meanwhile starts a new worker instead of a dying one.
    const workers = idle.map((s) => s.worker!);
    for (const s of idle) {
      s.worker = undefined;
      s.ready = false;
    }
    // Calls waiting for a worker that was loading get a new one.
    this.dispatch();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /**
   * Starts a worker (one at most, in a free slot) so that a first call finds it loaded: the load
   * takes a second of CPU, more on a busy machine. An idle worker keeps nothing alive.
   */
  warm(): void {
    if (this.slots.some((s) => s.worker)) return;
    this.spawn(this.slots[0]!);
  }

  /**
   * With a limit of calls per worker, a call goes only to a loaded worker: it waits in the queue
   * for whichever is first, a busy worker ending its call (milliseconds, often) or a worker
   * started for it loading (a second of CPU, over 10 s on a loaded machine: a person's docx
   * preview, handed to a worker just started while another ran an index computation, waited
   * that long). Without a limit, calls are handed over at once and wait in their worker.
   */
  private get gated(): boolean {
    return this.options.callsPerWorker !== undefined && this.options.callsPerWorker < Infinity;
  }

  /** Hands queued calls to workers with room, in order (a routed call waits for its own). */
  private dispatch(): void {
    let waiting = 0;
    for (let i = 0; i < this.queue.length;) {
      const call = this.queue[i]!;
      const slot = this.slotFor(call.options.route);
      if (!slot) {
        if (call.options.route === undefined) waiting++;
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.send(slot, call);
    }
    if (this.gated) this.startFor(waiting);
  }

  /** Workers started for calls that wait: as many loading as calls waiting, in free slots. */
  private startFor(waiting: number): void {
    let loading = this.slots.filter((s) => s.worker && !s.ready).length;
    for (const slot of this.slots) {
      if (loading >= waiting) return;
      if (slot.worker) continue;
      // Kept alive while it loads for a call, as a call in flight keeps its worker.
      this.spawn(slot).ref();
      loading++;
    }
  }

  private slotFor(route: string | undefined): Slot | undefined {
    const cap = this.options.callsPerWorker ?? Infinity;
    const candidates =
      route === undefined ? this.slots : [this.slots[hash(route) % this.slots.length]!];
    const free = candidates.filter(
      (s) => s.pending.size < cap && (route !== undefined || !this.gated || s.ready),
    );
    // The least busy; between equals, a running worker (its start-up is paid).
    return free.reduce<Slot | undefined>(
      (best, s) =>
        !best ||
        s.pending.size < best.pending.size ||
        (s.pending.size === best.pending.size && s.worker !== undefined && !best.worker)
          ? s
          : best,
      undefined,
    );
  }

  private send(slot: Slot, call: Call): void {
    const worker = (slot.worker ??= this.spawn(slot));
    const id = this.nextId++;
    const { timeoutMs, transfer } = call.options;
    const entry: { call: Call; timer?: NodeJS.Timeout } = { call };
    if (timeoutMs !== undefined) {
      const timedOut = () => {
        slot.pending.delete(id);
        call.reject(this.error({ kind: 'timed out' }));
        this.retire(slot, worker);
      };
      if (this.options.timeLimitCounts === 'cpu') {
        // A thread not yet started has used no CPU for this call: what it uses counts from 0.
        const cpuAtStart = slot.tid === undefined ? 0 : threadCpuMs(slot.tid);
        const wallEnd = Date.now() + timeoutMs * CPU_LIMIT_WALL_CAP;
        const check = () => {
          const cpuNow = slot.tid === undefined ? undefined : threadCpuMs(slot.tid);
          const used =
            cpuNow === undefined || cpuAtStart === undefined ? undefined : cpuNow - cpuAtStart;
          // Unknown CPU time (no /proc): the limit counts wall time, as by default.
          if (used === undefined || used >= timeoutMs || Date.now() >= wallEnd) return timedOut();
          // The CPU time cannot reach the limit sooner than that.
          entry.timer = setTimeout(check, Math.min(timeoutMs - used, wallEnd - Date.now()));
        };
        entry.timer = setTimeout(check, timeoutMs);
      } else entry.timer = setTimeout(timedOut, timeoutMs);
    }
    slot.pending.set(id, entry);
    call.sent = { slot, id };
    worker.ref(); // a call in flight keeps the process alive; an idle worker does not
    worker.postMessage({ ...call.message, id }, transfer);
  }

  private spawn(slot: Slot): Worker {
    const { heapMb } = this.options;
    const worker = new Worker(workerBootstrap(this.moduleUrl, this.options.niceness), {
      eval: true,
      ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}),
    });
    this.started++;
    this.live.add(worker);
    worker.once('exit', () => this.live.delete(worker));
    worker.unref();
    slot.worker = worker;
    slot.tid = undefined;
    slot.ready = false;
    worker.on('message', (reply: Reply) => {
      if (slot.worker !== worker) return;
      if (reply.ready) {
        slot.ready = true;
        this.dispatch();
        if (slot.pending.size === 0) worker.unref();
        return;
      }
      if (reply.id === undefined) {
        slot.tid = reply.tid;
        return;
      }
      const entry = slot.pending.get(reply.id);
      if (!entry) return;
      slot.pending.delete(reply.id);
      clearTimeout(entry.timer);
      if (slot.pending.size === 0) worker.unref();
      if (reply.error !== undefined)
        entry.call.reject(
          this.error({ kind: 'thrown', message: reply.error, status: reply.status }),
        );
      else entry.call.resolve(reply.result);
      this.dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) =>
      this.fail(slot, worker, { kind: 'crashed', message: err.message, code: err.code }),
    );
    worker.on('exit', (exitCode) => this.fail(slot, worker, { kind: 'exited', exitCode }));
    return worker;
  }

  /**
   * A call stopped by its signal: out of the queue, or, running alone in its worker, with that
   * worker (its work is stopped for real; the slot starts a new one on the next call).
   */
  private abort(call: Call, reason: Error): void {
    const queued = this.queue.indexOf(call);
    if (queued >= 0) this.queue.splice(queued, 1);
    const sent = call.sent;
    const entry = sent?.slot.pending.get(sent.id);
    if (sent && entry?.call === call) {
      sent.slot.pending.delete(sent.id);
      clearTimeout(entry.timer);
      const worker = sent.slot.worker;
      if (worker && sent.slot.pending.size === 0) this.retire(sent.slot, worker);
    } else if (queued < 0) return; // it had ended already
    call.reject(reason);
    this.dispatch();
  }

  /** Ends a worker whose call timed out: its other calls fail, its slot starts a new one. */
  private retire(slot: Slot, worker: Worker): void {
    this.fail(slot, worker, { kind: 'exited', exitCode: 1 });
    void worker.terminate();
  }

  private fail(slot: Slot, worker: Worker, failure: CallFailure): void {
    if (slot.worker !== worker) return;
    const loaded = slot.ready;
    slot.worker = undefined;
    slot.ready = false;
    const calls = [...slot.pending.values()];
    slot.pending.clear();
    for (const { call, timer } of calls) {
      clearTimeout(timer);
      call.reject(this.error(failure));
    }
    // A worker that could not load (its module threw) would fail again: the calls waiting for a
    // worker fail with it, unless a loaded worker is there to take them.
    if (this.gated && !loaded && !this.slots.some((s) => s.ready)) {
      const waiting: Call[] = [];
      const kept: Call[] = [];
      for (const call of this.queue) (call.options.route === undefined ? waiting : kept).push(call);
      this.queue.splice(0, this.queue.length, ...kept);
      for (const call of waiting) call.reject(this.error(failure));
    }
    this.dispatch();
  }

  private error(failure: CallFailure): Error {
    if (this.options.failure) return this.options.failure(failure);
    switch (failure.kind) {
      case 'thrown':
      case 'crashed':
        return new Error(failure.message);
      case 'exited':
        return new Error(`a worker stopped (exit code ${failure.exitCode})`);
      case 'timed out':
        return new Error('a worker took too long');
    }
  }
}

/** The reason an aborted signal gives, as an Error. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return Math.abs(h);
}
