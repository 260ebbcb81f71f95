import { type SqlBool, sql } from 'kysely';
import { analyzeIfAnalysed, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The Relances list counts and pages an organisation's invoices still to be paid by due date. Through
 * (organization_id, type, status, maturity) the two open statuses came as two ranges, merged by a sort of every
 * match before the first page. This index holds only those invoices, in list order (due date, then id): a page reads
 * its rows and stops, the counts read the index. Its WHERE is the query's, word for word (see REMINDABLE in
 * queries/payment-reminders.ts): a planner takes a partial index only for a query whose terms imply it.
 */
export async function up(db: MigrationDb): Promise<void> {
  // PostgreSQL builds no index on a table with trigger events pending, and an upgrade runs its migrations in one
  // transaction: one that wrote documents earlier in it (a backfill) left the deferred generation triggers queued
  // (migration 0070). They fire now, at each statement's end for the rest of the upgrade, as a database copy does.
  if (isPostgres(db)) await sql`set constraints all immediate`.execute(db);
  await db.schema
    .createIndex('documents_remindable_idx')
    .on('documents')
    .columns(['organization_id', 'maturity', 'id'])
    .where(
      sql.raw<SqlBool>(
        "type = 'invoice' and status in ('unpaid', 'partial') and amount_due > 0 and maturity is not null and number is not null",
      ),
    )
    .execute();
  await analyzeIfAnalysed(db, ['documents_remindable_idx']);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('documents_remindable_idx').execute();
}
