import type { MigrationDb } from './helpers';
import { sql } from 'kysely';
import { withId } from './helpers';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('items'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    // Decimal as text: a price is exact ('12.5'), never a binary float.
    .addColumn('unit_price', 'text', (c) => c.notNull())
    // Goods or services: it decides the e-invoicing "nature of the operation".
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('goods', 'service')`))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('tax_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('items_org_name_idx').on('items').columns(['organization_id', 'deleted_at', 'name']).execute();
  await db.schema.createIndex('items_org_code_idx').on('items').columns(['organization_id', 'code']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('items').execute();
}
