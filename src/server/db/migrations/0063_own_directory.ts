import { sql } from 'kysely';
import type { MigrationDb } from './helpers';

/**
 * The organisation's own line in the directory of the e-invoicing reform (the Directory Service of its Plateforme
 * Agréée), read by its SIREN: the electronic address its invoices carry as the seller's (BT-34, scheme 0225) and its
 * routing code. `status` is 'unknown' until read, 'listed' or 'absent'; `checked_at` when it was last read; `error`
 * why the last reading failed ('' when it went through), so the settings page can say it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('einvoice_own_directory')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unknown').check(sql`status in ('unknown', 'listed', 'absent')`))
    .addColumn('siren', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('electronic_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address_scheme', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('routing_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('checked_at', 'text')
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('einvoice_own_directory').execute();
}
