import type { MigrationDb } from './helpers';
import { sql } from 'kysely';
import { isPostgres, searchTerms } from '../dialect';

// SQLite FTS5 with diacritics folded ('clément' finds 'Clement'). The services keep it up to date (not triggers),
// so the PostgreSQL backend mirrors it with a tsvector column written by the same service calls.
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);
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

/**
 * PostgreSQL: a plain table with the same columns, plus two tsvector columns the same service calls write (the
 * words folded by db/dialect.ts searchWords): `heading` (title and subtitle) and `words` (all three), GIN-indexed.
 */
async function upPostgres(db: MigrationDb): Promise<void> {
  await sql`create table search_index (
    rowid bigint primary key, organization_id bigint not null, kind text not null, ref_id bigint not null,
    title text not null, subtitle text not null, body text not null, heading tsvector not null, words tsvector not null
  )`.execute(db);
  await sql`create index search_index_heading on search_index using gin (heading)`.execute(db);
  await sql`create index search_index_words on search_index using gin (words)`.execute(db);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  // The entries as this table was then (db/queries/search.ts writes today's, with the columns of later migrations).
  const insert = async (
    rowid: number,
    organizationId: unknown,
    kind: string,
    refId: unknown,
    title: string,
    subtitle: string,
    body: string,
  ) => {
    const heading = searchTerms(`${title} ${subtitle}`);
    await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, words)
      values (${rowid}, ${Number(organizationId)}, ${kind}, ${Number(refId)}, ${title}, ${subtitle}, ${body},
        to_tsvector('simple', ${heading}), to_tsvector('simple', ${`${heading} ${searchTerms(body)}`}))`.execute(db);
  };
  for (const c of await db.selectFrom('customers').selectAll().where('deleted_at', 'is', null).execute())
    await insert(
      Number(c.id) * 8,
      c.organization_id,
      'customer',
      c.id,
      text(c.name),
      text(c.number),
      [c.legal_name, c.email, c.business_id, c.vat_number, c.address_city].map(text).join(' ').trim(),
    );
  for (const i of await db.selectFrom('items').selectAll().where('deleted_at', 'is', null).execute())
    await insert(
      Number(i.id) * 8 + 1,
      i.organization_id,
      'item',
      i.id,
      text(i.name),
      text(i.code),
      [i.sku, i.description].map(text).join(' ').trim(),
    );
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table search_index`.execute(db);
}
