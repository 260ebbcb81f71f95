import type { MigrationDb } from './helpers';
import { sql } from 'kysely';
import { withId } from './helpers';

// MigrationDb: a migration describes the database as it was at its time.
export async function up(db: MigrationDb): Promise<void> {
  // One row per organisation and series; incremented inside the transaction that uses the number, never reset.
  await db.schema
    .createTable('counters')
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('counters_pk', ['organization_id', 'name'])
    .execute();

  await withId(db.schema.createTable('taxes'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    // Decimal as text ('5.5'): rates are exact decimals, never binary floats.
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('taxes_organization_idx').on('taxes').column('organization_id').execute();

  await withId(db.schema.createTable('units'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('units_org_name_unique', ['organization_id', 'name'])
    .execute();

  await withId(db.schema.createTable('customers'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('company', 'individual')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('web', 'text', (c) => c.notNull())
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('vat_number', 'text', (c) => c.notNull())
    // Addresses and contacts as JSON validated by the shared schema; the city is a column for the list's filter.
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('address_city', 'text', (c) => c.notNull())
    .addColumn('shipping', 'text', (c) => c.notNull())
    .addColumn('contacts', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('maturity', 'integer', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addUniqueConstraint('customers_org_number_unique', ['organization_id', 'number'])
    .execute();
  await db.schema.createIndex('customers_org_name_idx').on('customers').columns(['organization_id', 'deleted_at', 'name']).execute();

  // Organisations registered before this migration get the same French defaults as new ones.
  const now = new Date().toISOString();
  const organizations = await db.selectFrom('organizations').select('id').execute();
  for (const { id } of organizations) {
    await db
      .insertInto('taxes')
      .values(
        DEFAULT_TAXES.map(([title, rate], position) => ({ organization_id: id, title, rate, position, created_at: now, updated_at: now })),
      )
      .execute();
    await db
      .insertInto('units')
      .values(DEFAULT_UNIT_NAMES.map((name, position) => ({ organization_id: id, name, position, created_at: now })))
      .execute();
  }
}

// Frozen copies: a migration must insert what was the default when it was written, whatever the code says later.
const DEFAULT_TAXES: [string, string][] = [
  ['TVA 20 %', '20'],
  ['TVA 10 %', '10'],
  ['TVA 5,5 %', '5.5'],
  ['TVA 2,1 %', '2.1'],
  ['TVA 0 %', '0'],
];
const DEFAULT_UNIT_NAMES = ['u', 'h', 'jour', 'kg', 'm', 'm²', 'forfait'];

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['customers', 'units', 'taxes', 'counters']) await db.schema.dropTable(table).execute();
}
