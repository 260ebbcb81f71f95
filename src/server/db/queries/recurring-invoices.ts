import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { RecurringInvoicesTable, RecurringInvoiceRunsTable } from '../schema';
import type { RecurringInvoiceModel, RecurringMode } from '../../../shared/schemas/recurring-invoice';
import type { Frequency } from '../../../shared/recurrence';
import { fromStoredUnits, toStoredUnits } from '../../../shared/money';
import { nowIso } from '../../clock';

type Row = Selectable<RecurringInvoicesTable>;

/** The model's form as stored: the document form's fields, without those of its schedule. */
type StoredModel = Omit<
  RecurringInvoiceModel,
  'frequency' | 'interval' | 'month_end' | 'start_date' | 'end_date' | 'occurrences' | 'mode' | 'paused'
>;

export function fromRecurringInvoiceRow(row: Row & { customer_name: string | null }) {
  const model = JSON.parse(row.model) as StoredModel;
  return {
    ...model,
    id: row.id,
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    customer_name: row.customer_name ?? '',
    total: fromStoredUnits(row.total),
    frequency: row.frequency as Frequency,
    interval: row.interval,
    month_end: row.month_end === 1,
    start_date: row.start_date,
    end_date: row.end_date,
    occurrences: row.occurrences,
    mode: row.mode as RecurringMode,
    paused: row.paused === 1,
    generated_until: row.generated_until,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type StoredRecurringInvoice = ReturnType<typeof fromRecurringInvoiceRow>;

function toColumns(r: RecurringInvoiceModel, total: number) {
  const { frequency, interval, month_end, start_date, end_date, occurrences, mode, paused, ...model } = r;
  return {
    customer_id: r.customer_id,
    model: JSON.stringify({ ...model, items: model.items.map(({ key: _key, ...item }) => item) }),
    total: toStoredUnits(total),
    frequency,
    interval,
    month_end: month_end ? 1 : 0,
    start_date,
    end_date: end_date ?? null,
    occurrences: occurrences ?? null,
    mode,
    paused: paused ? 1 : 0,
  };
}

function select(db: Db) {
  return db
    .selectFrom('recurring_invoices as r')
    .leftJoin('customers as c', 'c.id', 'r.customer_id')
    .selectAll('r')
    .select('c.name as customer_name');
}

export async function insertRecurringInvoice(db: Db, params: { organizationId: number; model: RecurringInvoiceModel; total: number }) {
  const now = nowIso();
  const row = await db
    .insertInto('recurring_invoices')
    .values({
      organization_id: params.organizationId,
      ...toColumns(params.model, params.total),
      generated_until: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRecurringInvoice(
  db: Db,
  params: { organizationId: number; id: number; model: RecurringInvoiceModel; total: number },
) {
  await db
    .updateTable('recurring_invoices')
    .set({ ...toColumns(params.model, params.total), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function setRecurringInvoicePaused(db: Db, params: { organizationId: number; id: number; paused: boolean }) {
  await db
    .updateTable('recurring_invoices')
    .set({ paused: params.paused ? 1 : 0, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

/** Its runs go with it (ON DELETE CASCADE); the invoices it made stay, they are the organisation's records. */
export async function deleteRecurringInvoice(db: Db, params: { organizationId: number; id: number }) {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('recurring_invoice_runs')
      .where('organization_id', '=', params.organizationId)
      .where('recurring_id', '=', params.id)
      .execute();
    await trx.deleteFrom('recurring_invoices').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
  });
}

export async function findRecurringInvoice(db: Db, params: { organizationId: number; id: number }) {
  const row = await select(db).where('r.organization_id', '=', params.organizationId).where('r.id', '=', params.id).executeTakeFirst();
  return row ? fromRecurringInvoiceRow(row) : undefined;
}

export async function listRecurringInvoices(db: Db, organizationId: number) {
  const rows = await select(db).where('r.organization_id', '=', organizationId).orderBy('c.name').orderBy('r.id').execute();
  return rows.map(fromRecurringInvoiceRow);
}

/** Every running recurring invoice of every organisation, for the scheduler. */
export async function activeRecurringInvoices(db: Db) {
  const rows = await select(db).where('r.paused', '=', 0).execute();
  return rows.map(fromRecurringInvoiceRow);
}

/** The runs of some recurring invoices, newest first, with the number their invoice took. */
export async function runsOf(db: Db, params: { organizationId: number; recurringIds: number[] }) {
  if (params.recurringIds.length === 0) return [];
  return db
    .selectFrom('recurring_invoice_runs as run')
    .leftJoin('documents as d', (join) => join.onRef('d.id', '=', 'run.document_id').onRef('d.organization_id', '=', 'run.organization_id'))
    .select(['run.recurring_id', 'run.occurrence_date', 'run.status', 'run.error', 'run.created_at', 'd.id as document_id', 'd.number'])
    .where('run.organization_id', '=', params.organizationId)
    .where('run.recurring_id', 'in', params.recurringIds)
    .orderBy('run.occurrence_date', 'desc')
    .execute();
}

/**
 * Takes an occurrence's key, in the transaction that writes its invoice: false when another run already took it
 * (the insert does nothing), and the caller then writes nothing. Moves the recurring invoice's mark past it.
 */
export async function claimOccurrence(
  trx: Db,
  params: { organizationId: number; recurringId: number; date: string; status: RecurringInvoiceRunsTable['status'] },
): Promise<number | null> {
  const inserted = await trx
    .insertInto('recurring_invoice_runs')
    .values({
      organization_id: params.organizationId,
      recurring_id: params.recurringId,
      occurrence_date: params.date,
      document_id: null,
      status: params.status,
      error: '',
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['recurring_id', 'occurrence_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  await trx
    .updateTable('recurring_invoices')
    .set({ generated_until: params.date })
    .where('id', '=', params.recurringId)
    .where((eb) => eb.or([eb('generated_until', 'is', null), eb('generated_until', '<', params.date)]))
    .execute();
  return inserted.id;
}

export async function updateRun(
  db: Db,
  params: { id: number; documentId?: number; status?: RecurringInvoiceRunsTable['status']; error?: string },
) {
  await db
    .updateTable('recurring_invoice_runs')
    .set({
      ...(params.documentId !== undefined ? { document_id: params.documentId } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(params.error !== undefined ? { error: params.error.slice(0, 1000) } : {}),
    })
    .where('id', '=', params.id)
    .execute();
}
