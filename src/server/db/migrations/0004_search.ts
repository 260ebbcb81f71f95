import type { MigrationDb } from './helpers';
import { sql } from 'kysely';

// SQLite FTS5 with diacritics folded ('clément' finds 'Clement'). The services keep it up to date (not triggers),
// so the PostgreSQL backend mirrors it with a tsvector column written by the same service calls.
export async function up(db: MigrationDb): Promise<void> {
  await sql`create virtual table search_index using fts5(
    organization_id unindexed, kind unindexed, ref_id unindexed, title, subtitle, body,
    tokenize = "unicode61 remove_diacritics 2"
  )`.execute(db);
  // rowid = id * 8 + kind code (0 customer, 1 item), as db/queries/search.ts computes it.
  await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body)
    select id * 8, organization_id, 'customer', id, name, number, trim(legal_name || ' ' || email || ' ' || business_id || ' ' || vat_number || ' ' || address_city)
    from customers where deleted_at is null`.execute(db);
  await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body)
    select id * 8 + 1, organization_id, 'item', id, name, code, trim(sku || ' ' || description)
    from items where deleted_at is null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table search_index`.execute(db);
}
