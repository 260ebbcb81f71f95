import type { Db } from '../connection';
import type { DocumentItemRow, DocumentRow } from './document-mapping';
import { nextTurn } from '../../workers/packed';

/**
 * The reads of the FEC export: issued sales documents and payments of a period, as rows. Their mapping, entries and
 * text are built in a worker thread (services/fec-book.ts): here only SQL, page by page, so that the event loop serves
 * other requests between the pages of a year of invoices.
 */

/** Documents read per statement: a page of rows with their lines is about ten milliseconds of synchronous SQLite. */
const PAGE = 200;

export type SaleRows = { documents: DocumentRow[]; items: DocumentItemRow[] };

/** The documents of `ids` with their lines, a page at a time, the event loop served between pages. */
async function* pagesOf(db: Db, organizationId: number, ids: number[]): AsyncGenerator<SaleRows> {
  for (let start = 0; start < ids.length; start += PAGE) {
    if (start > 0) await nextTurn();
    const page = ids.slice(start, start + PAGE);
    const rows = await db
      .selectFrom('documents')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', 'in', page)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const documents = page.flatMap((id) => byId.get(id) ?? []);
    const items = await db.selectFrom('document_items').selectAll().where('document_id', 'in', page).orderBy('position').execute();
    yield { documents, items };
  }
}

/** Invoices and credit notes issued (numbered) with a date in [from, to], oldest first. */
export async function* issuedSalePages(db: Db, params: { organizationId: number; from: string; to: string }): AsyncGenerator<SaleRows> {
  const ids = await db
    .selectFrom('documents')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('type', 'in', ['invoice', 'credit'])
    .where('number', 'is not', null)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('counter')
    .execute();
  yield* pagesOf(
    db,
    params.organizationId,
    ids.map((r) => r.id),
  );
}

/** The issued deposit invoices that the given final invoices deduct. */
export async function* deductedDepositPages(db: Db, params: { organizationId: number; invoiceIds: number[] }): AsyncGenerator<SaleRows> {
  const ids: number[] = [];
  for (let start = 0; start < params.invoiceIds.length; start += PAGE) {
    const rows = await db
      .selectFrom('documents')
      .select('id')
      .where('organization_id', '=', params.organizationId)
      .where('kind', '=', 'deposit')
      .where('number', 'is not', null)
      .where('deducted_by_id', 'in', params.invoiceIds.slice(start, start + PAGE))
      .orderBy('counter')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  yield* pagesOf(db, params.organizationId, ids);
}

function paymentPage(db: Db, organizationId: number, ids: number[]) {
  return db
    .selectFrom('payments as p')
    .innerJoin('documents as d', (join) => join.onRef('d.id', '=', 'p.document_id').onRef('d.organization_id', '=', 'p.organization_id'))
    .select([
      'p.id',
      'p.date',
      'p.amount',
      'p.method',
      'p.created_at',
      'd.number',
      'd.currency',
      'd.exchange_rate',
      'd.customer_name',
      'd.customer_snapshot',
    ])
    .where('p.organization_id', '=', organizationId)
    .where('p.id', 'in', ids)
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
}

export type PaymentRow = Awaited<ReturnType<typeof paymentPage>>[number];

/** Payments (and their reversals) dated in [from, to], with the invoice they settle, in their order. */
export async function* paymentPagesOfPeriod(
  db: Db,
  params: { organizationId: number; from: string; to: string },
): AsyncGenerator<PaymentRow[]> {
  const ids = await db
    .selectFrom('payments')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('id')
    .execute();
  for (let start = 0; start < ids.length; start += PAGE) {
    if (start > 0) await nextTurn();
    yield await paymentPage(
      db,
      params.organizationId,
      ids.slice(start, start + PAGE).map((r) => r.id),
    );
  }
}
