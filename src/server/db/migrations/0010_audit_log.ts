import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The append-only, hash-chained log: one chain per organisation. Each entry keeps its content as
 * written (JSON text), the SHA-256 of that text, the hash of the previous entry and its own hash over both; the
 * triggers refuse any UPDATE or DELETE through the application, and verify detects one made behind its back.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('audit_log'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('previous_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Two appends racing for the same place in the chain: the second fails instead of forking it.
    .addUniqueConstraint('audit_log_org_sequence_unique', ['organization_id', 'sequence'])
    .execute();
  if (isPostgres(db)) {
    // The same refusal, with the same message, written the PostgreSQL way (a trigger calls a function).
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(
      db,
    );
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(
      db,
    );
  }

  // A recorded payment is never rewritten nor deleted: a mistaken one is cancelled by a counter-entry (a row of the
  // opposite amount naming it). The unique index makes a second reversal of the same payment impossible.
  await db.schema
    .alterTable('payments')
    .addColumn('reverses_id', 'integer', (c) => c.references('payments.id'))
    .execute();
  await db.schema.createIndex('payments_reverses_unique').on('payments').column('reverses_id').unique().execute();
}
