import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The audit log's closings: daily, monthly and yearly, each a signed summary of the chain up to an entry (its
 * sequence and hash, the perpetual totals of sales and payments) chained to the previous closing's signature.
 * `payload` is the exact JSON text signed; the other columns repeat some of it for lookups and uniqueness.
 *
 * Chains written before this migration were hashed with plain SHA-256, which anyone able to write to the database
 * can recompute. They are not rehashed: rewriting them would erase the very history that proves them. Instead each
 * organisation that already has entries receives here its closing n° 1, period 'legacy', fixing the boundary (the
 * last entry at upgrade time). The key lives outside the database and migrations cannot read it, so the row is left
 * unsigned (empty payload and signature); the application signs it right after the migrations, with the chain's hash
 * at that entry. From then on the legacy segment is as safe as the rest: changing any of its entries changes the
 * hash that the signed seal holds. Entries after the boundary must carry the keyed hash.
 *
 * Closings are never updated nor deleted, except that an unsigned seal may be signed once.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('audit_closings'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('last_sequence', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Two processes closing the same day: the second fails instead of numbering a duplicate.
    .addUniqueConstraint('audit_closings_org_number_unique', ['organization_id', 'number'])
    .addUniqueConstraint('audit_closings_org_period_unique', ['organization_id', 'period', 'period_start'])
    .execute();

  if (isPostgres(db)) {
    await sql`CREATE FUNCTION audit_closings_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR OLD.signature <> '' THEN RAISE EXCEPTION 'audit_closings is append-only'; END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER audit_closings_no_update BEFORE UPDATE ON audit_closings FOR EACH ROW EXECUTE FUNCTION audit_closings_sealed()`.execute(
      db,
    );
    await sql`CREATE TRIGGER audit_closings_no_delete BEFORE DELETE ON audit_closings FOR EACH ROW EXECUTE FUNCTION audit_closings_sealed()`.execute(
      db,
    );
  } else {
    await sql`CREATE TRIGGER audit_closings_no_update BEFORE UPDATE ON audit_closings WHEN OLD.signature <> ''
      BEGIN SELECT RAISE(ABORT, 'audit_closings is append-only'); END`.execute(db);
    await sql`CREATE TRIGGER audit_closings_no_delete BEFORE DELETE ON audit_closings
      BEGIN SELECT RAISE(ABORT, 'audit_closings is append-only'); END`.execute(db);
  }

  const chains = await db
    .selectFrom('audit_log')
    .select((eb) => ['organization_id', eb.fn.max('sequence').as('last')])
    .groupBy('organization_id')
    .execute();
  const now = new Date().toISOString();
  for (const chain of chains) {
    await db
      .insertInto('audit_closings')
      .values({
        organization_id: Number(chain.organization_id),
        number: 1,
        period: 'legacy',
        period_start: '',
        last_sequence: Number(chain.last),
        payload: '',
        signature: '',
        created_at: now,
      })
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  // The sealing triggers go with the table (on PostgreSQL, their function after it).
  await db.schema.dropTable('audit_closings').execute();
  if (isPostgres(db)) await sql`DROP FUNCTION IF EXISTS audit_closings_sealed()`.execute(db);
}
