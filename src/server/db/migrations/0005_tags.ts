import type { MigrationDb } from './helpers';
import { sql } from 'kysely';
import { withId } from './helpers';

export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('tags'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The name folded by the server (Unicode lower case): SQLite's lower() folds ASCII only, and 'École' must clash
    // with 'école' on both backends.
    .addColumn('name_key', 'text', (c) => c.notNull())
    // A palette key; the shared schema owns the palette, so it can grow without a migration.
    .addColumn('color', 'text', (c) => c.notNull())
    // One flag per kind of record (0/1, no booleans in storage): the pickers and the checks filter on them.
    .addColumn('for_customers', 'integer', (c) => c.notNull())
    .addColumn('for_items', 'integer', (c) => c.notNull())
    .addColumn('for_documents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_org_name_key_unique', ['organization_id', 'name_key'])
    .execute();

  // One join table for every kind rather than one per kind: a single query answers a list's chips and its filter,
  // and documents join in without a migration of their own. The price is no foreign key on ref_id; customers,
  // items and documents are archived, never deleted, so a tagging cannot outlive its record, and deleting a tag
  // cascades to its taggings.
  await db.schema
    .createTable('taggings')
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('customer', 'item', 'document')`))
    .addColumn('ref_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('taggings_pk', ['tag_id', 'kind', 'ref_id'])
    .execute();
  // The chips of a page of records: by record, within the organisation.
  await db.schema.createIndex('taggings_org_kind_ref_idx').on('taggings').columns(['organization_id', 'kind', 'ref_id']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('taggings').execute();
  await db.schema.dropTable('tags').execute();
}
