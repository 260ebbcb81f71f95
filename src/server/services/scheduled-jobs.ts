import { Cron } from 'croner';
import type { Db } from '../db/connection';
import { listJobRuns } from '../scheduler/lease';
import type { Job } from '../scheduler/scheduler';
import type { ScheduledJob } from '../../shared/schemas/reminders';

/** Every job of the product with its last run (from its lease row) and its next one (from its pattern, Paris time). */
export async function listScheduledJobs(db: Db, jobs: readonly Job[], now: Date): Promise<ScheduledJob[]> {
  const runs = new Map((await listJobRuns(db)).map((run) => [run.name, run]));
  return jobs.map((job) => {
    const run = runs.get(job.name);
    const next = new Cron(job.pattern, { timezone: 'Europe/Paris', paused: true }).nextRun(now);
    return {
      name: job.name,
      label: job.label ?? job.name,
      pattern: job.pattern,
      next_run_at: next ? next.toISOString() : null,
      last_started_at: run?.last_started_at ?? null,
      last_finished_at: run?.last_finished_at ?? null,
      last_status: run?.last_status === 'ok' || run?.last_status === 'error' ? run.last_status : null,
      last_message: run?.last_message ?? null,
    };
  });
}
