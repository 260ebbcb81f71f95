import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { AuditLogTable } from '../schema';

export type AuditRow = Omit<Selectable<AuditLogTable>, 'id' | 'organization_id'>;
const COLUMNS = ['sequence', 'event', 'content', 'content_hash', 'previous_hash', 'hash', 'created_at'] as const;

/** The end of an organisation's chain: the entry the next one links to. */
export async function findLastEntry(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('audit_log')
    .select(['sequence', 'hash'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertEntry(db: Db, params: { organizationId: number; entry: AuditRow }): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ organization_id: params.organizationId, ...params.entry })
    .execute();
}

/** A page of the log, newest first. */
export async function listEntries(db: Db, params: { organizationId: number; offset: number; limit: number }): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .orderBy('sequence', 'desc')
    .offset(params.offset)
    .limit(params.limit)
    .execute();
}

export async function countEntries(db: Db, params: { organizationId: number }): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The whole chain in order, for verify. */
export async function listChain(db: Db, params: { organizationId: number }): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .orderBy('sequence', 'asc')
    .execute();
}

/** Every organisation that has a log, for the operator's `npm run audit:verify`. */
export async function listLoggedOrganizations(db: Db) {
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where((eb) =>
      eb.exists(eb.selectFrom('audit_log').select('audit_log.id').whereRef('audit_log.organization_id', '=', 'organizations.id')),
    )
    .orderBy('id')
    .execute();
}

/**
 * The columns that make an issued document's legal content (number, dates, parties, mentions, lines, totals as
 * stored): their hash is taken at issue and recomputed by verify. Balance columns (paid, amount_due, status) move
 * with payments and are not part of it.
 */
const LEGAL_DOCUMENT_COLUMNS = [
  'type',
  'kind',
  'number',
  'counter',
  'date',
  'maturity',
  'sale_date',
  'condition',
  'header',
  'footer',
  'terms',
  'discount_type',
  'discount_value',
  'shipping_fee',
  'shipping_details',
  'vat_exemption',
  'customer_name',
  'currency',
  'price_mode',
  'corrects_id',
  'seller_snapshot',
  'customer_snapshot',
  'legal_mentions',
  'tax_groups',
  'subtotal',
  'discount',
  'tax',
  'shipping',
  'total',
  'deposits',
  'issued_at',
] as const;
/**
 * Columns added to the legal content after the log began: hashed only when they carry a value, so that an entry
 * written before them still verifies. (A document's delivery address is hashed within its customer snapshot.)
 */
const LATER_LEGAL_COLUMNS = ['purchase_order', 'shipping_tax'] as const;
const LEGAL_LINE_COLUMNS = [
  'position',
  'code',
  'sku',
  'item',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'discount_type',
  'discount_value',
  'taxes',
  'kind',
  'amounts',
] as const;

export async function findLegalContent(db: Db, params: { organizationId: number; documentId: number }) {
  const document = await db
    .selectFrom('documents')
    .select([...LEGAL_DOCUMENT_COLUMNS, ...LATER_LEGAL_COLUMNS])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.documentId)
    .executeTakeFirst();
  if (!document) return undefined;
  const lines = await db
    .selectFrom('document_items')
    .select(LEGAL_LINE_COLUMNS)
    .where('document_id', '=', params.documentId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  // Named key by key so the JSON that is hashed never depends on the driver's column order.
  const pick = <K extends string>(keys: readonly K[], row: Record<K, unknown>) => Object.fromEntries(keys.map((k) => [k, row[k]]));
  const later = LATER_LEGAL_COLUMNS.filter((k) => document[k] !== '' && document[k] !== null);
  return {
    document: { ...pick(LEGAL_DOCUMENT_COLUMNS, document), ...pick(later, document) },
    lines: lines.map((l) => pick(LEGAL_LINE_COLUMNS, l)),
  };
}
