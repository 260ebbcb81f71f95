import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL, the documents list at 100 000 documents. SQLite has both already (its kept counts live in
 * the process, its trigram index is migration 0040's), so this whole migration is PostgreSQL's, as 0040 is SQLite's:
 * - `document_generations`: one row per organisation whose `generation` grows with every transaction that writes
 *   its documents, bumped by a trigger in that same transaction, whichever process or statement writes. A list's
 *   count is read with the generation in one statement (one snapshot) and reused while the generation is the same
 *   (db/queries/document-counts.ts). The trigger is deferred to the commit, so the row is locked only while the
 *   transaction commits, after every document lock it takes: two transactions writing documents never wait on each
 *   other for it in an order that could deadlock. It bumps once per transaction and organisation (a local setting
 *   remembers it), so a bulk write of 100 000 rows updates the row once.
 * - `search_index.number_parts`: the suffixes of a document's number (three characters or more, lower case) as
 *   lexemes, GIN-indexed: a part of a number is a prefix of one of its suffixes, so `'1552':*` finds 'FAC-2026-01552'
 *   through the index, where `ILIKE '%1552%'` read every entry of the organisation (no pg_trgm: no extension).
 */
export async function up(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable('document_generations')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
  await sql`create function bump_document_generation() returns trigger language plpgsql as $$
    declare
      organization bigint := case when tg_op = 'DELETE' then old.organization_id else new.organization_id end;
      written text := 'facturier.documents_written_' || organization;
    begin
      if coalesce(current_setting(written, true), '') <> '1' then
        insert into document_generations (organization_id, generation) values (organization, 1)
          on conflict (organization_id) do update set generation = document_generations.generation + 1;
        perform set_config(written, '1', true);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger documents_generation after insert or update or delete on documents
    deferrable initially deferred for each row execute function bump_document_generation()`.execute(db);

  await db.schema
    .alterTable('search_index')
    .addColumn('number_parts', sql`tsvector`, (c) => c.notNull().defaultTo(sql`''`))
    .execute();
  await sql`create index search_index_number_parts on search_index using gin (number_parts)`.execute(db);
  // The numbers already indexed (a document's entry is its rowid id * 8 + 2, db/queries/search.ts), a chunk per
  // statement, their suffixes computed by the one function the service calls.
  const numbered = await db.selectFrom('documents').select(['id', 'number']).where('number', 'is not', null).orderBy('id').execute();
  for (let i = 0; i < numbered.length; i += 1000) {
    const parts = numbered.slice(i, i + 1000).map((d) => ({ id: Number(d.id), parts: numberSuffixes(String(d.number)) }));
    await sql`update search_index set number_parts = array_to_tsvector(array(select jsonb_array_elements_text(v.value -> 'parts')))
      from jsonb_array_elements(cast(${JSON.stringify(parts)} as jsonb)) v
      where search_index.rowid = cast(v.value ->> 'id' as bigint) * 8 + 2`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index search_index_number_parts`.execute(db);
  await db.schema.alterTable('search_index').dropColumn('number_parts').execute();
  await sql`drop trigger documents_generation on documents`.execute(db);
  await sql`drop function bump_document_generation()`.execute(db);
  await db.schema.dropTable('document_generations').execute();
}

/** A document number's suffixes of three characters or more, as the search indexed them when this migration ran. */
function numberSuffixes(number: string): string[] {
  const characters = [...number.normalize('NFKC').toLowerCase()];
  const suffixes: string[] = [];
  for (let start = 0; start + 3 <= characters.length; start++) suffixes.push(characters.slice(start).join(''));
  return suffixes;
}
