import type { Db } from '../connection';
import type { Tag, TagColor, TagKind } from '../../../shared/schemas/tag';
import { nowIso } from '../../clock';

/** The short form a tagged record answers: enough to draw its chip. */
export interface TagChip {
  id: number;
  name: string;
  color: TagColor;
}

const SCOPE_COLUMNS = { customer: 'for_customers', item: 'for_items', document: 'for_documents' } as const satisfies Record<
  TagKind,
  string
>;

/** Unicode lower case, so that uniqueness ignores case beyond ASCII ('École' and 'école' clash). */
export const tagNameKey = (name: string) => name.normalize('NFC').toLocaleLowerCase('fr');

const toColumns = (tag: Tag) => ({
  name: tag.name,
  name_key: tagNameKey(tag.name),
  color: tag.color,
  for_customers: tag.scopes.includes('customer') ? 1 : 0,
  for_items: tag.scopes.includes('item') ? 1 : 0,
  for_documents: tag.scopes.includes('document') ? 1 : 0,
});

type Row = { id: number; name: string; color: string; for_customers: number; for_items: number; for_documents: number };
const fromRow = (row: Row) => ({
  id: row.id,
  name: row.name,
  color: row.color as TagColor,
  scopes: (Object.keys(SCOPE_COLUMNS) as TagKind[]).filter((kind) => row[SCOPE_COLUMNS[kind]] === 1),
});
export type TagRecord = ReturnType<typeof fromRow> & { usage: Record<TagKind, number> };

/** The organisation's tags by name, each with how many records of each kind carry it. */
export async function listTags(db: Db, params: { organizationId: number; scope?: TagKind; id?: number }): Promise<TagRecord[]> {
  let query = db
    .selectFrom('tags')
    .select(['id', 'name', 'color', 'for_customers', 'for_items', 'for_documents'])
    .where('organization_id', '=', params.organizationId);
  if (params.scope) query = query.where(SCOPE_COLUMNS[params.scope], '=', 1);
  if (params.id !== undefined) query = query.where('id', '=', params.id);
  const rows = await query.orderBy('name_key').orderBy('id').execute();
  let countQuery = db
    .selectFrom('taggings')
    .select(['tag_id', 'kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('organization_id', '=', params.organizationId);
  if (params.id !== undefined) countQuery = countQuery.where('tag_id', '=', params.id);
  const counts = await countQuery.groupBy(['tag_id', 'kind']).execute();
  return rows.map((row) => {
    const usage: Record<TagKind, number> = { customer: 0, item: 0, document: 0 };
    for (const c of counts) if (c.tag_id === row.id) usage[c.kind] = Number(c.n);
    return { ...fromRow(row), usage };
  });
}

export async function findTagByName(db: Db, params: { organizationId: number; name: string; exceptId?: number }) {
  let query = db
    .selectFrom('tags')
    .select(['id', 'name'])
    .where('organization_id', '=', params.organizationId)
    .where('name_key', '=', tagNameKey(params.name));
  if (params.exceptId !== undefined) query = query.where('id', '!=', params.exceptId);
  return query.executeTakeFirst();
}

export async function insertTag(db: Db, params: { organizationId: number; tag: Tag }): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('tags')
    .values({ organization_id: params.organizationId, ...toColumns(params.tag), created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTag(db: Db, params: { organizationId: number; id: number; tag: Tag }): Promise<boolean> {
  const result = await db
    .updateTable('tags')
    .set({ ...toColumns(params.tag), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the tag and its taggings (the foreign key cascades too; this does not rely on it). */
export async function deleteTag(db: Db, params: { organizationId: number; id: number }): Promise<void> {
  await db.deleteFrom('taggings').where('organization_id', '=', params.organizationId).where('tag_id', '=', params.id).execute();
  await db.deleteFrom('tags').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}

/** Takes a tag off every record of the given kinds (when its scope no longer covers them). */
export async function removeTaggingsOfKinds(db: Db, params: { organizationId: number; tagId: number; kinds: TagKind[] }): Promise<void> {
  if (params.kinds.length === 0) return;
  await db
    .deleteFrom('taggings')
    .where('organization_id', '=', params.organizationId)
    .where('tag_id', '=', params.tagId)
    .where('kind', 'in', params.kinds)
    .execute();
}

/** The organisation's tags among `ids`, with their scopes: what a record's `tag_ids` are checked against. */
export async function findTags(db: Db, params: { organizationId: number; ids: number[] }) {
  if (params.ids.length === 0) return [];
  const rows = await db
    .selectFrom('tags')
    .select(['id', 'name', 'color', 'for_customers', 'for_items', 'for_documents'])
    .where('organization_id', '=', params.organizationId)
    .where('id', 'in', params.ids)
    .execute();
  return rows.map(fromRow);
}

/** Replaces the record's tags with `tagIds` (already checked). */
export async function setTaggings(
  db: Db,
  params: { organizationId: number; kind: TagKind; refId: number; tagIds: number[] },
): Promise<void> {
  await db
    .deleteFrom('taggings')
    .where('organization_id', '=', params.organizationId)
    .where('kind', '=', params.kind)
    .where('ref_id', '=', params.refId)
    .execute();
  if (params.tagIds.length === 0) return;
  await db
    .insertInto('taggings')
    .values(
      [...new Set(params.tagIds)].map((tagId) => ({
        organization_id: params.organizationId,
        tag_id: tagId,
        kind: params.kind,
        ref_id: params.refId,
      })),
    )
    .execute();
}

/** A subquery of the ids of the records of `kind` carrying the tag: a list's `tag` filter. */
export function refIdsTagged(db: Db, params: { organizationId: number; kind: TagKind; tagId: number }) {
  return db
    .selectFrom('taggings')
    .select('ref_id')
    .where('organization_id', '=', params.organizationId)
    .where('kind', '=', params.kind)
    .where('tag_id', '=', params.tagId);
}

// Bounded id lists: SQLite caps a statement's parameters, and an export may tag thousands of records.
const CHUNK = 500;

/** Gives each record its `tag_ids` and `tags` (by name), in one query per 500 records. */
export async function withTags<T extends { id: number }>(
  db: Db,
  params: { organizationId: number; kind: TagKind },
  records: T[],
): Promise<(T & { tag_ids: number[]; tags: TagChip[] })[]> {
  const byRecord = new Map<number, TagChip[]>();
  for (let start = 0; start < records.length; start += CHUNK) {
    const ids = records.slice(start, start + CHUNK).map((r) => r.id);
    const rows = await db
      .selectFrom('taggings')
      .innerJoin('tags', 'tags.id', 'taggings.tag_id')
      .select(['taggings.ref_id', 'tags.id', 'tags.name', 'tags.color'])
      .where('taggings.organization_id', '=', params.organizationId)
      .where('taggings.kind', '=', params.kind)
      .where('taggings.ref_id', 'in', ids)
      .orderBy('tags.name_key')
      .execute();
    for (const row of rows) {
      const list = byRecord.get(row.ref_id) ?? [];
      list.push({ id: row.id, name: row.name, color: row.color as TagColor });
      byRecord.set(row.ref_id, list);
    }
  }
  return records.map((record) => {
    const tags = byRecord.get(record.id) ?? [];
    return { ...record, tag_ids: tags.map((t) => t.id), tags };
  });
}
