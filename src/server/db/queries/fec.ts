import type { Db } from '../connection';
import { documentOfRow, type DocumentItemRow } from './document-mapping';
import { fromStoredUnits } from '../../../shared/money';
import type { StoredDocument } from '../../../shared/schemas/document-model';
import { customerPartySchema } from '../../../shared/schemas/document-parties';

/** The reads of the FEC export: issued sales documents and payments of a period, with what their entries need. */

async function withLines(db: Db, rows: Parameters<typeof documentOfRow>[0][]): Promise<StoredDocument[]> {
  const byDocument = new Map<number, DocumentItemRow[]>();
  // SQLite caps bound parameters per statement: read the lines in chunks.
  for (let start = 0; start < rows.length; start += 500) {
    const ids = rows.slice(start, start + 500).map((r) => r.id);
    const items = await db.selectFrom('document_items').selectAll().where('document_id', 'in', ids).orderBy('position').execute();
    for (const item of items) byDocument.set(item.document_id, [...(byDocument.get(item.document_id) ?? []), item]);
  }
  return rows.map((row) => documentOfRow(row, byDocument.get(row.id) ?? []));
}

/** Invoices and credit notes issued (numbered) with a date in [from, to], oldest first. */
export async function listIssuedSales(db: Db, params: { organizationId: number; from: string; to: string }): Promise<StoredDocument[]> {
  const rows = await db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where('type', 'in', ['invoice', 'credit'])
    .where('number', 'is not', null)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('counter')
    .execute();
  return withLines(db, rows);
}

/** The issued deposit invoices that the given final invoices deduct. */
export async function listDeductedDeposits(db: Db, params: { organizationId: number; invoiceIds: number[] }): Promise<StoredDocument[]> {
  const rows = [];
  for (let start = 0; start < params.invoiceIds.length; start += 500) {
    rows.push(
      ...(await db
        .selectFrom('documents')
        .selectAll()
        .where('organization_id', '=', params.organizationId)
        .where('kind', '=', 'deposit')
        .where('number', 'is not', null)
        .where('deducted_by_id', 'in', params.invoiceIds.slice(start, start + 500))
        .orderBy('counter')
        .execute()),
    );
  }
  return withLines(db, rows);
}

/** Payments (and their reversals) dated in [from, to], with the invoice they settle. */
export async function listPaymentsOfPeriod(db: Db, params: { organizationId: number; from: string; to: string }) {
  const rows = await db
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
    .where('p.organization_id', '=', params.organizationId)
    .where('p.date', '>=', params.from)
    .where('p.date', '<=', params.to)
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
  return rows.map(({ customer_snapshot, customer_name, ...r }) => {
    const customer = customer_snapshot === null ? null : customerPartySchema.parse(JSON.parse(customer_snapshot));
    return {
      ...r,
      amount: fromStoredUnits(r.amount),
      number: r.number ?? '',
      customer: { number: customer?.number ?? '', name: customer?.name || customer_name },
    };
  });
}
