import { sql, type Selectable } from 'kysely';
import type { ItemsTable } from '../schema';
import type { Db } from '../connection';
import type { Item } from '../../../shared/schemas/item';
import { nowIso } from '../../clock';
import { containsText } from './like';
import { refIdsTagged, withTags, type TagChip } from './tags';

const COLUMNS = [
  'id',
  'code',
  'sku',
  'name',
  'description',
  'unit',
  'unit_price',
  'kind',
  'active',
  'tax_ids',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

type Row = Omit<Selectable<ItemsTable>, 'organization_id'>;

function fromRow(row: Row) {
  return { ...row, unit_price: Number(row.unit_price), active: row.active === 1, tax_ids: JSON.parse(row.tax_ids) as number[] };
}
export type ItemRecord = ReturnType<typeof fromRow> & { tag_ids: number[]; tags: TagChip[] };

const toColumns = (item: Item) => ({
  code: item.code,
  sku: item.sku,
  name: item.name,
  description: item.description,
  unit: item.unit,
  unit_price: String(item.unit_price),
  kind: item.kind,
  active: item.active ? 1 : 0,
  tax_ids: JSON.stringify(item.tax_ids),
});

export async function insertItem(db: Db, params: { organizationId: number; item: Item }): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('items')
    .values({ organization_id: params.organizationId, ...toColumns(params.item), created_at: now, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateItem(db: Db, params: { organizationId: number; id: number; item: Item }): Promise<void> {
  await db
    .updateTable('items')
    .set({ ...toColumns(params.item), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function findItem(db: Db, params: { organizationId: number; id: number }): Promise<ItemRecord | undefined> {
  const row = await db
    .selectFrom('items')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return row ? (await withTags(db, { organizationId: params.organizationId, kind: 'item' }, [fromRow(row)]))[0] : undefined;
}

/** Another live item of the organisation already using this code (codes are optional; an empty one never clashes). */
export async function findItemByCode(db: Db, params: { organizationId: number; code: string; exceptId?: number }) {
  let query = db
    .selectFrom('items')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('deleted_at', 'is', null)
    .where(sql`lower(code)`, '=', params.code.toLowerCase());
  if (params.exceptId) query = query.where('id', '!=', params.exceptId);
  return query.executeTakeFirst();
}

export async function setItemDeletedAt(db: Db, params: { organizationId: number; id: number; deletedAt: string | null }): Promise<void> {
  await db
    .updateTable('items')
    .set({ deleted_at: params.deletedAt, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export interface ItemListParams {
  organizationId: number;
  search?: string;
  kind?: 'goods' | 'service';
  active: 'all' | 'active' | 'inactive';
  tagId?: number;
  archived: 'exclude' | 'include' | 'only';
  sortBy: 'name' | 'code' | 'unit_price' | 'created_at';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export async function listItems(db: Db, params: ItemListParams): Promise<{ total: number; data: ItemRecord[] }> {
  let query = db.selectFrom('items').where('organization_id', '=', params.organizationId);
  if (params.archived === 'exclude') query = query.where('deleted_at', 'is', null);
  if (params.archived === 'only') query = query.where('deleted_at', 'is not', null);
  if (params.kind) query = query.where('kind', '=', params.kind);
  if (params.active !== 'all') query = query.where('active', '=', params.active === 'active' ? 1 : 0);
  if (params.tagId)
    query = query.where('id', 'in', refIdsTagged(db, { organizationId: params.organizationId, kind: 'item', tagId: params.tagId }));
  if (params.search) {
    const search = params.search;
    query = query.where((eb) =>
      eb.or([containsText('name', search), containsText('code', search), containsText('sku', search), containsText('description', search)]),
    );
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  // Prices are decimal text: sort them as numbers.
  const order = params.sortBy === 'unit_price' ? sql`cast(unit_price as real)` : sql.ref(params.sortBy);
  const rows = await query
    .select(COLUMNS)
    .orderBy(order, params.sortOrder)
    .orderBy('id', params.sortOrder)
    .limit(params.limit)
    .offset(params.offset)
    .execute();
  return { total: Number(total), data: await withTags(db, { organizationId: params.organizationId, kind: 'item' }, rows.map(fromRow)) };
}
