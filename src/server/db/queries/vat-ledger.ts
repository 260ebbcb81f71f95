import { sql } from 'kysely';
import type { Db } from '../connection';
import type { VatLedgerTable } from '../schema';
import type { VatOperationsCursor } from '../../../shared/schemas/vat-operations';

/**
 * The VAT ledger's rows (migration 0069): what the stale marks say, the rows of owners replaced, the per-day sums
 * rewritten for the days that moved, and what a return reads. The rows themselves come from the engine
 * (services/vat-ledger.ts).
 */

export type VatLedgerRow = VatLedgerTable;

/** Whether a write left anything of the organisation to recompute (the return's fast path reads only this). */
export async function hasStaleVatLedger(db: Db, organizationId: number): Promise<boolean> {
  const row = await db
    .selectFrom('vat_ledger_dirty')
    .select('id')
    .where('organization_id', '=', organizationId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the organisation's marks: deleted and returned in one statement, so that two processes never recompute the
 * same owner twice (the second waits on the first's delete, then finds nothing).
 */
export async function claimStaleVatLedger(db: Db, organizationId: number) {
  return db.deleteFrom('vat_ledger_dirty').where('organization_id', '=', organizationId).returning(['owner', 'id']).execute();
}

/** The owners of a sale among documents `ids`: issued invoices, and credit notes on no issued invoice of theirs. */
export async function saleOwnersAmong(db: Db, params: { organizationId: number; ids: readonly number[] }): Promise<number[]> {
  const owners: number[] = [];
  for (const ids of slices(params.ids))
    owners.push(...(await saleOwners(db, params.organizationId).where('d.id', 'in', ids).execute()).map((r) => r.id));
  return owners;
}

/** Every owner of a sale of the organisation, in id order. */
export async function allSaleOwners(db: Db, organizationId: number): Promise<number[]> {
  return (await saleOwners(db, organizationId).orderBy('d.id').execute()).map((r) => r.id);
}

function saleOwners(db: Db, organizationId: number) {
  return db
    .selectFrom('documents as d')
    .select('d.id')
    .where('d.organization_id', '=', organizationId)
    .where('d.number', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('d.type', '=', 'invoice'),
        eb.and([
          eb('d.type', '=', 'credit'),
          eb.not(
            eb.exists(
              eb
                .selectFrom('documents as i')
                .select('i.id')
                .whereRef('i.id', '=', 'd.corrects_id')
                .where('i.organization_id', '=', organizationId)
                .where('i.type', '=', 'invoice')
                .where('i.number', 'is not', null),
            ),
          ),
        ]),
      ]),
    );
}

/** Every expense of the organisation, in id order (those in another currency than the base one yield no row). */
export async function allExpenseOwners(db: Db, organizationId: number): Promise<number[]> {
  return (await db.selectFrom('expenses').select('id').where('organization_id', '=', organizationId).orderBy('id').execute()).map(
    (r) => r.id,
  );
}

/** Deletes the rows of these owners; answers the days they were on. */
export async function deleteVatLedgerOwners(
  db: Db,
  params: { organizationId: number; owner: 'sale' | 'expense'; ids: readonly number[] },
): Promise<string[]> {
  const dates = new Set<string>();
  for (const ids of slices(params.ids)) {
    const rows = await db
      .deleteFrom('vat_ledger')
      .where('organization_id', '=', params.organizationId)
      .where('owner', '=', params.owner)
      .where('owner_id', 'in', ids)
      .returning('date')
      .execute();
    for (const r of rows) dates.add(r.date);
  }
  return [...dates];
}

/** Empties the organisation's ledger and its sums (a rebuild). */
export async function clearVatLedger(db: Db, organizationId: number): Promise<void> {
  await db.deleteFrom('vat_ledger').where('organization_id', '=', organizationId).execute();
  await db.deleteFrom('vat_ledger_days').where('organization_id', '=', organizationId).execute();
}

export async function insertVatLedgerRows(db: Db, rows: readonly VatLedgerRow[]): Promise<void> {
  // 12 values a row: under SQLite's limit of bound parameters.
  for (const slice of slices(rows, 1000)) await db.insertInto('vat_ledger').values(slice).execute();
}

/** Rewrites the per-day sums of these days (all of the organisation's when `dates` is undefined) from the ledger. */
export async function writeVatLedgerDays(db: Db, params: { organizationId: number; dates?: readonly string[] }): Promise<void> {
  const { organizationId } = params;
  const write = async (dates: readonly string[] | undefined) => {
    let clear = db.deleteFrom('vat_ledger_days').where('organization_id', '=', organizationId);
    let rows = db
      .selectFrom('vat_ledger')
      .select([
        'organization_id',
        'date',
        'line',
        'rate',
        'reverse_charge',
        sql<number>`count(*)`.as('rows'),
        sql<number>`sum(base)`.as('base'),
        sql<number>`sum(tax)`.as('tax'),
      ])
      .where('organization_id', '=', organizationId)
      .groupBy(['organization_id', 'date', 'line', 'rate', 'reverse_charge']);
    if (dates) {
      clear = clear.where('date', 'in', dates);
      rows = rows.where('date', 'in', dates);
    }
    await clear.execute();
    await db
      .insertInto('vat_ledger_days')
      .columns(['organization_id', 'date', 'line', 'rate', 'reverse_charge', 'rows', 'base', 'tax'])
      .expression(rows)
      .execute();
  };
  if (params.dates === undefined) return write(undefined);
  for (const dates of slices(params.dates)) await write(dates);
}

/** The period's sums per line, rate and reverse charge, with how many ledger rows make them up. */
export async function vatLedgerSums(db: Db, params: { organizationId: number; from: string; to: string }) {
  return db
    .selectFrom('vat_ledger_days')
    .select([
      'line',
      'rate',
      'reverse_charge',
      sql<number>`sum(rows)`.as('rows'),
      sql<number>`sum(base)`.as('base'),
      sql<number>`sum(tax)`.as('tax'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .groupBy(['line', 'rate', 'reverse_charge'])
    .execute();
}

/**
 * One page of a line's operations in the period: the ledger's rows of one piece (document or expense) on one day at one
 * rate summed, in the order of the index of migration 0072, resuming after `after`. The page reads its own rows through
 * that index and stops (`limit`): its cost does not grow with the organisation or the period.
 */
export async function vatLedgerLinePage(
  db: Db,
  params: {
    organizationId: number;
    line: string;
    from: string;
    to: string;
    after: VatOperationsCursor | null;
    limit: number;
  },
) {
  const { after } = params;
  // The range starts at the cursor's day: given only the period's first day, SQLite walks the index from there and
  // filters on the cursor (a page deep in a year read in milliseconds instead of tens of microseconds).
  const start = after && after.date > params.from ? after.date : params.from;
  let query = db
    .selectFrom('vat_ledger')
    .select(['date', 'source', 'item_id', 'rate', sql<number | string>`sum(base)`.as('base'), sql<number | string>`sum(tax)`.as('tax')])
    .where('organization_id', '=', params.organizationId)
    .where('line', '=', params.line)
    .where('date', '>=', start)
    .where('date', '<=', params.to);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('date', 'source', 'item_id', 'rate'), '>', eb.tuple(after.date, after.source, after.id, after.rate)),
    );
  return query
    .groupBy(['date', 'source', 'item_id', 'rate'])
    .orderBy('date')
    .orderBy('source')
    .orderBy('item_id')
    .orderBy('rate')
    .limit(params.limit)
    .execute();
}

/** One line's sums over the period, from the per-day sums (at most a row per day and rate). */
export async function vatLedgerLineSums(db: Db, params: { organizationId: number; line: string; from: string; to: string }) {
  return db
    .selectFrom('vat_ledger_days')
    .select([sql<number | string | null>`sum(base)`.as('base'), sql<number | string | null>`sum(tax)`.as('tax')])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .where('line', '=', params.line)
    .executeTakeFirstOrThrow();
}

/** The owners with a movement in the period (the documents and expenses behind its lines). */
export async function vatLedgerOwners(db: Db, params: { organizationId: number; from: string; to: string }) {
  return db
    .selectFrom('vat_ledger')
    .select(['owner', 'owner_id'])
    .distinct()
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .execute();
}

/** The organisation's rows, in a stable order (the rebuild test compares them). */
export async function listVatLedger(db: Db, organizationId: number) {
  return db
    .selectFrom('vat_ledger')
    .select(['owner', 'owner_id', 'source', 'item_id', 'date', 'line', 'nature', 'rate', 'reverse_charge', 'base', 'tax'])
    .where('organization_id', '=', organizationId)
    .orderBy('owner')
    .orderBy('owner_id')
    .orderBy('date')
    .orderBy('source')
    .orderBy('item_id')
    .orderBy('line')
    .orderBy('nature')
    .orderBy('rate')
    .orderBy('reverse_charge')
    .orderBy('base')
    .orderBy('tax')
    .execute();
}

export async function listVatLedgerDays(db: Db, organizationId: number) {
  return db
    .selectFrom('vat_ledger_days')
    .select(['date', 'line', 'rate', 'reverse_charge', 'rows', 'base', 'tax'])
    .where('organization_id', '=', organizationId)
    .orderBy('date')
    .orderBy('line')
    .orderBy('rate')
    .orderBy('reverse_charge')
    .execute();
}

function slices<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
