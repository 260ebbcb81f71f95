import type { Db } from '../db/connection';

/**
 * A job's lease in the database: a process runs a job only after taking its row, and a lease that its
 * holder never released (a crash) lapses at `until`. SQLite serialises the UPDATE, so two processes never both win.
 *
 * `occurrence` is the time a timer tick was due, the same in every process: a tick whose occurrence was already
 * started (by a process whose run was quick enough to release the lease before this one asked) is not run again.
 * Answers why a lease was not taken, for the « Tâches planifiées » panel.
 */
export async function takeLease(
  db: Db,
  params: { job: string; holder: string; now: Date; ttlMs: number; occurrence?: Date },
): Promise<'taken' | 'held' | 'done'> {
  const now = params.now.toISOString();
  await db
    .insertInto('scheduler_jobs')
    .values({ name: params.job })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const occurrence = params.occurrence?.toISOString();
  const result = await db
    .updateTable('scheduler_jobs')
    .set({ lease_holder: params.holder, lease_until: new Date(params.now.getTime() + params.ttlMs).toISOString(), last_started_at: now })
    .where('name', '=', params.job)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .$if(occurrence !== undefined, (qb) =>
      qb.where((eb) => eb.or([eb('last_started_at', 'is', null), eb('last_started_at', '<', occurrence as string)])),
    )
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return 'taken';
  // Without an occurrence only a live lease refuses (it may have been released since: the other run was quick).
  if (occurrence === undefined) return 'held';
  const row = await db.selectFrom('scheduler_jobs').select('lease_until').where('name', '=', params.job).executeTakeFirst();
  return row?.lease_until && row.lease_until >= now ? 'held' : 'done';
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
