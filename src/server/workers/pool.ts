import { type ResourceLimits, Worker } from 'node:worker_threads';

/** Why a task did not come back with its answer: each gets its own French sentence from the caller. */
export type RefusalReason = 'timeout' | 'memory' | 'busy' | 'closed';

export class TaskRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** A task's own error, thrown in the worker and carried back as data (a class does not cross threads). */
export type TaskFailure = { name: string; message: string; code?: string; messages?: string | string[] };

export class TaskFailed extends Error {
  constructor(readonly failure: TaskFailure) {
    super(failure.message);
  }
}

export type WorkerRequest = { id: number; task: string; args: unknown[] };
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; failure: TaskFailure };

type Job = {
  id: number;
  task: string;
  args: unknown[];
  transfer: ArrayBuffer[];
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};

type Slot = { worker: Worker; job: Job | null; timer: NodeJS.Timeout | null };

export type PoolOptions = {
  /** Workers started at most; each is started on the first task that needs it, then kept warm. */
  size: number;
  /** Tasks waiting for a worker at most: past it a task is refused at once rather than waiting behind them. */
  maxQueue: number;
  resourceLimits: ResourceLimits;
} & WorkerEntry;

/** The worker's module, or (`eval`) a line of JavaScript that loads it. */
export type WorkerEntry = { entry: URL; eval: false } | { entry: string; eval: true };

export type PoolStats = {
  workers: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  timedOut: number;
  outOfMemory: number;
  refusedBusy: number;
};

/**
 * A few worker threads that run the CPU-heavy tasks off the event loop. A task over its time is stopped by
 * terminating its worker (a busy JavaScript thread cannot be interrupted otherwise), a worker over its memory limit
 * dies on its own; either way a fresh worker takes its place and the other tasks go on.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly counts = { completed: 0, failed: 0, timedOut: 0, outOfMemory: 0, refusedBusy: 0 };

  constructor(private readonly options: PoolOptions) {}

  run<T>(task: string, args: unknown[], budget: { timeoutMs: number; transfer?: ArrayBuffer[] }): Promise<T> {
    if (this.closed) return Promise.reject(new TaskRefused('closed', 'pool closed'));
    const free = this.freeSlot();
    if (!free && this.queue.length >= this.options.maxQueue) {
      this.counts.refusedBusy += 1;
      return Promise.reject(new TaskRefused('busy', 'queue full'));
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        task,
        args,
        transfer: budget.transfer ?? [],
        timeoutMs: budget.timeoutMs,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (free) this.start(free, job);
      else this.queue.push(job);
    });
  }

  stats(): PoolStats {
    return {
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job).length,
      queued: this.queue.length,
      ...this.counts,
    };
  }

  /** Refuses what waits, abandons what runs (the callers get `closed`), and stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new TaskRefused('closed', 'pool closed'));
    const slots = this.slots.splice(0);
    for (const slot of slots) this.settle(slot, (job) => job.reject(new TaskRefused('closed', 'pool closed')));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  /** An idle worker, or a new one while the pool is below its size. */
  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.job);
    if (idle) return idle;
    if (this.slots.length >= this.options.size) return undefined;
    const slot = this.spawn();
    this.slots.push(slot);
    return slot;
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.entry, { eval: this.options.eval, resourceLimits: this.options.resourceLimits });
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (reply: WorkerReply) => {
      if (slot.job?.id !== reply.id) return;
      const outcome = reply;
      this.settle(slot, (job) => {
        if (outcome.ok) {
          this.counts.completed += 1;
          job.resolve(outcome.value);
        } else {
          this.counts.failed += 1;
          job.reject(new TaskFailed(outcome.failure));
        }
      });
      this.next(slot);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (memory) this.counts.outOfMemory += 1;
      else this.counts.failed += 1;
      this.settle(slot, (job) =>
        job.reject(memory ? new TaskRefused('memory', error.message) : new TaskFailed({ name: error.name, message: error.message })),
      );
      this.replace(slot);
    });
    worker.on('exit', () => {
      // An exit nobody asked for (a crash in native code): what ran is lost, a fresh worker takes the place.
      if (!this.slots.includes(slot)) return;
      this.settle(slot, (job) => job.reject(new TaskFailed({ name: 'Error', message: 'worker exited' })));
      this.replace(slot);
    });
    // An idle worker never keeps the process alive (a script ends when its work does).
    worker.unref();
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.counts.timedOut += 1;
      this.settle(slot, (timedOut) => timedOut.reject(new TaskRefused('timeout', `over ${timedOut.timeoutMs} ms`)));
      this.replace(slot);
    }, job.timeoutMs);
    const request: WorkerRequest = { id: job.id, task: job.task, args: job.args };
    slot.worker.postMessage(request, job.transfer);
  }

  /** Ends the slot's current job (once) with `finish`. */
  private settle(slot: Slot, finish: (job: Job) => void): void {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
    if (job) finish(job);
  }

  /** Stops a worker that is no longer trusted (over time, out of memory, crashed) and starts the next task elsewhere. */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (this.closed) return;
    const waiting = this.queue.shift();
    if (!waiting) return;
    const fresh = this.spawn();
    this.slots.push(fresh);
    this.start(fresh, waiting);
  }

  private next(slot: Slot): void {
    const waiting = this.queue.shift();
    if (waiting) this.start(slot, waiting);
  }
}
