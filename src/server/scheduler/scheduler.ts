import crypto from 'node:crypto';
import { Cron } from 'croner';
import type { Db } from '../db/connection';
import { logger } from '../logger';
import { metrics, secondsSince } from '../metrics';
import type { AppDeps } from '../context';
import { releaseLease, takeLease } from './lease';

/** What a job may need beyond the database: mailing (reminders), printing PDFs, the e-invoicing platform. */
export type JobDeps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'pdf' | 'einvoice' | 'issueArchiver' | 'payments'>;

/** One piece of timed work: when it runs (a cron pattern, Europe/Paris) and what it does at `now`. */
export interface Job {
  name: string;
  /** Its name on the « Tâches planifiées » panel. */
  label?: string;
  pattern: string;
  /** `deps` is absent only where a scheduler is built on a bare database (tests of database-only jobs). */
  run(db: Db, now: Date, deps?: JobDeps): Promise<string>;
}

export interface JobResult {
  job: string;
  ran: boolean;
  message: string;
}

/**
 * The product's one in-process scheduler: croner fires each job on its pattern; every run first takes
 * the job's lease in the database, so that one process at a time runs it, and records its last run there. The work
 * itself is idempotent (each job's own unique keys), so a run missed while the server was down is simply caught up
 * by the next one. `now` is injectable for tests.
 */
export class Scheduler {
  private readonly holder = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private crons: Cron[] = [];
  private running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly jobs: Job[],
    private readonly now: () => Date = () => new Date(),
    private readonly leaseMs = 10 * 60_000,
    private readonly deps?: JobDeps,
  ) {}

  start(): void {
    for (const job of this.jobs) {
      this.crons.push(
        new Cron(job.pattern, { timezone: 'Europe/Paris', protect: true }, async () => {
          await this.track(this.runTick(job.name));
        }),
      );
    }
    // What fell due while the server was down is made at start, not at the next tick.
    void this.track(this.runDue());
  }

  /** Runs in flight are awaited by stop(), so the database is never closed under one. */
  private async track<T>(run: Promise<T>): Promise<T> {
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  async stop(): Promise<void> {
    for (const cron of this.crons) cron.stop();
    this.crons = [];
    await Promise.allSettled([...this.running]);
  }

  /** Runs every job now, or those named (the operator's `npm run jobs:run`, and tests). */
  async runDue(only?: readonly string[]): Promise<JobResult[]> {
    const results: JobResult[] = [];
    for (const job of this.jobs) if (!only || only.includes(job.name)) results.push(await this.runJob(job));
    return results;
  }

  /**
   * The run of a timer tick. Every process's timer fires for the same minute (the patterns have no seconds): that
   * minute is the tick's occurrence, run once whichever process comes first, however quick its run.
   */
  async runTick(name: string): Promise<JobResult> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`unknown job ${name}`);
    const occurrence = new Date(Math.floor(this.now().getTime() / 60_000) * 60_000);
    return this.runJob(job, occurrence);
  }

  /**
   * Never rejects: a run is fired by a timer, where a rejection would be unhandled and end the process. The lease
   * itself may fail (the database busy past its timeout under a long write, or closing): the run is skipped, said in
   * the logs, and the next tick tries again.
   */
  private async runJob(job: Job, occurrence?: Date): Promise<JobResult> {
    try {
      return await this.runLeased(job, occurrence);
    } catch (error) {
      logger.error(`job ${job.name}: lease not taken or released`, error);
      metrics.jobSkips.inc({ job: job.name });
      return { job: job.name, ran: false, message: `Non exécutée : ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private async runLeased(job: Job, occurrence?: Date): Promise<JobResult> {
    const lease = await takeLease(this.db, { job: job.name, holder: this.holder, now: this.now(), ttlMs: this.leaseMs, occurrence });
    if (lease !== 'taken') {
      metrics.jobSkips.inc({ job: job.name });
      const message = lease === 'held' ? 'Déjà en cours dans un autre processus' : 'Déjà faite par un autre processus';
      return { job: job.name, ran: false, message };
    }
    const started = performance.now();
    try {
      const message = await job.run(this.db, this.now(), this.deps);
      metrics.jobRuns.observe({ job: job.name, status: 'ok' }, secondsSince(started));
      await releaseLease(this.db, { job: job.name, holder: this.holder, now: this.now(), status: 'ok', message });
      return { job: job.name, ran: true, message };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      metrics.jobRuns.observe({ job: job.name, status: 'error' }, secondsSince(started));
      logger.info({ job: job.name, error: message });
      await releaseLease(this.db, { job: job.name, holder: this.holder, now: this.now(), status: 'error', message });
      return { job: job.name, ran: true, message };
    }
  }
}
