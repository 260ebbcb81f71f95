import { sql } from 'kysely';
import { isPostgres } from '../dialect';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

const KINDS = (kinds: readonly string[]) => sql.join(kinds.map((k) => sql.lit(k)));
const BEFORE = ['transactions', 'payments', 'international'] as const;
const AFTER = [...BEFORE, 'purchases'] as const;

/**
 * E-reporting of international purchases (Flux 10.1 where the organisation is the buyer): a report kind of its own,
 * `purchases`. PostgreSQL swaps the CHECK constraint on `kind`; SQLite cannot alter one, so `ereporting_reports` is
 * rebuilt with its rows (ids kept: incoming platform statuses find their report by them).
 */
async function rebuild(db: MigrationDb, kinds: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table ereporting_reports drop constraint if exists ereporting_reports_kind_check`.execute(db);
    await sql`alter table ereporting_reports add constraint ereporting_reports_kind_check check (kind in (${KINDS(kinds)}))`.execute(db);
    return;
  }
  await withId(db.schema.createTable('ereporting_reports_new'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in (${KINDS(kinds)})`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('type_code', 'text', (c) => c.notNull().check(sql`type_code in ('IN', 'RE')`))
    .addColumn('tracking_id', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('invalid', 'sent', 'failed')`))
    .addColumn('flow_id', 'text')
    .addColumn('ack_status', 'text')
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('ereporting_reports_version_unique', ['organization_id', 'period', 'kind', 'version'])
    .execute();
  await sql`insert into ereporting_reports_new
    (id, organization_id, period, kind, version, type_code, tracking_id, xml, amount, state, flow_id, ack_status, errors, created_at, updated_at)
    select id, organization_id, period, kind, version, type_code, tracking_id, xml, amount, state, flow_id, ack_status, errors, created_at, updated_at
    from ereporting_reports where kind in (${KINDS(kinds)})`.execute(db);
  await db.schema.dropTable('ereporting_reports').execute();
  await db.schema.alterTable('ereporting_reports_new').renameTo('ereporting_reports').execute();
}

export async function up(db: MigrationDb): Promise<void> {
  await rebuild(db, AFTER);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) await sql`delete from ereporting_reports where kind = 'purchases'`.execute(db);
  await rebuild(db, BEFORE);
}
