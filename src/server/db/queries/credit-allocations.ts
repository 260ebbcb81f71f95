import { sql } from 'kysely';
import type { Db } from '../connection';
import { nowIso } from '../../clock';
import { OPEN_STATUSES } from '../../../shared/document-status';

/** What was set against an invoice from credit notes (scale 4). */
export async function sumAllocatedToInvoice(db: Db, params: { organizationId: number; invoiceId: number }): Promise<number> {
  const row = await db
    .selectFrom('credit_allocations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('invoice_id', '=', params.invoiceId)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

/** What a credit note gave so far, set against invoices or refunded (scale 4). */
export async function sumAllocatedFromCredit(db: Db, params: { organizationId: number; creditId: number }): Promise<number> {
  const row = await db
    .selectFrom('credit_allocations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('credit_id', '=', params.creditId)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

/** A credit note's allocations, oldest first, with the number of the invoice each went to (none for a refund). */
export async function listAllocationsOfCredit(db: Db, params: { organizationId: number; creditId: number }) {
  return db
    .selectFrom('credit_allocations as a')
    .leftJoin('documents as d', 'd.id', 'a.invoice_id')
    .select(['a.id', 'a.invoice_id', 'd.number as invoice_number', 'a.amount', 'a.method', 'a.date'])
    .where('a.organization_id', '=', params.organizationId)
    .where('a.credit_id', '=', params.creditId)
    .orderBy('a.id')
    .execute();
}

/** Rows are only ever inserted: a refund or an imputation is never rewritten. */
export async function insertAllocation(
  db: Db,
  params: { organizationId: number; creditId: number; invoiceId: number | null; amount: number; method: string; date: string },
): Promise<void> {
  await db
    .insertInto('credit_allocations')
    .values({
      organization_id: params.organizationId,
      credit_id: params.creditId,
      invoice_id: params.invoiceId,
      amount: params.amount,
      method: params.method,
      date: params.date,
      created_at: nowIso(),
    })
    .execute();
}

/** A customer's issued invoices still to be paid in a currency, oldest first: where an available credit goes next. */
export async function findOpenInvoices(db: Db, params: { organizationId: number; customerId: number; currency: string }) {
  return db
    .selectFrom('documents')
    .select(['id'])
    .where('organization_id', '=', params.organizationId)
    .where('customer_id', '=', params.customerId)
    .where('currency', '=', params.currency)
    .where('type', '=', 'invoice')
    .where('status', 'in', OPEN_STATUSES)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

/** Per currency, a customer's credit notes' refunds and what they still have available (scale 4). */
export async function customerCredits(db: Db, params: { organizationId: number; customerId: number }) {
  const rows = await db
    .selectFrom('documents as d')
    .select([
      'd.currency',
      sql<number>`coalesce(sum(d.total), 0)`.as('credited'),
      sql<number>`coalesce(sum(coalesce((select sum(a.amount) from credit_allocations a where a.credit_id = d.id), 0)), 0)`.as('given'),
      sql<number>`coalesce(sum(coalesce((select sum(a.amount) from credit_allocations a where a.credit_id = d.id and a.invoice_id is null), 0)), 0)`.as(
        'refunded',
      ),
    ])
    .where('d.organization_id', '=', params.organizationId)
    .where('d.customer_id', '=', params.customerId)
    .where('d.type', '=', 'credit')
    .where('d.number', 'is not', null)
    .groupBy('d.currency')
    .execute();
  // Integer units of 10^-4 on both sides: exact.
  return rows.map((r) => ({ currency: r.currency, available: Number(r.credited) - Number(r.given), refunded: Number(r.refunded) }));
}
