import type { Db } from '../db/connection';

/**
 * A job's lease in the database (issue 15 §5): a process runs a job only after taking its row, and a lease that its
 * holder never released (a crash) lapses at `until`. SQLite serialises the UPDATE, so two processes never both win.
 */
export async function takeLease(db: Db, params: { job: string; holder: string; now: Date; ttlMs: number }): Promise<boolean> {
  const now = params.now.toISOString();
  await db
    .insertInto('scheduler_jobs')
    .values({ name: params.job })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('scheduler_jobs')
    .set({ lease_holder: params.holder, lease_until: new Date(params.now.getTime() + params.ttlMs).toISOString(), last_started_at: now })
    .where('name', '=', params.job)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseLease(
  db: Db,
  params: { job: string; holder: string; now: Date; status: 'ok' | 'error'; message: string },
): Promise<void> {
  await db
    .updateTable('scheduler_jobs')
    .set({
      lease_holder: null,
      lease_until: null,
      last_finished_at: params.now.toISOString(),
      last_status: params.status,
      last_message: params.message.slice(0, 500),
    })
    .where('name', '=', params.job)
    .where('lease_holder', '=', params.holder)
    .execute();
}

export async function listJobRuns(db: Db) {
  return db
    .selectFrom('scheduler_jobs')
    .select(['name', 'last_started_at', 'last_finished_at', 'last_status', 'last_message'])
    .orderBy('name')
    .execute();
}
