import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * The reform's directory and e-reporting.
 *
 * A customer keeps what the platform's directory (annuaire) answered for its SIREN: `directory_status` 'unknown'
 * (never looked up, or no platform), 'listed' or 'absent', the electronic address and routing code of its first
 * line, and when it was read. Each column is added on its own: SQLite's ALTER TABLE adds one column per statement.
 *
 * `ereporting_reports` keeps every Flux 10 report written, one row per version: the first of a period and kind is
 * 'IN' (initial), each corrected one 'RE' (rectificative) with the next `version`. The XML is kept as sent, with the
 * platform's flow id and acknowledgement, and the errors that stopped or refused it (JSON list of strings).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('customers')
    .addColumn('directory_status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .execute();
  await db.schema
    .alterTable('customers')
    .addColumn('electronic_address', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('customers')
    .addColumn('routing_code', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('customers').addColumn('directory_checked_at', 'text').execute();

  await withId(db.schema.createTable('ereporting_reports'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('transactions', 'payments', 'international')`))
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
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('ereporting_reports').execute();
  for (const column of ['directory_checked_at', 'routing_code', 'electronic_address', 'directory_status'])
    await db.schema.alterTable('customers').dropColumn(column).execute();
}
