import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { RecurringExpensesTable } from '../schema';
import type { RecurringExpense } from '../../../shared/schemas/expense';
import type { Frequency } from '../../../shared/recurrence';
import { fromStoredUnits } from '../../../shared/money';
import { nowIso } from '../../clock';
import { amountColumns } from './expenses';

type Row = Selectable<RecurringExpensesTable> & { category_label: string | null };

export function fromRecurringRow(row: Row) {
  return {
    id: row.id,
    supplier: row.supplier,
    category: row.category,
    category_label: row.category_label ?? row.category,
    label: row.label,
    amount: fromStoredUnits(row.amount),
    vat: (JSON.parse(row.vat) as { rate: number; amount: number; deductible: boolean }[]).map((v) => ({
      ...v,
      amount: fromStoredUnits(v.amount),
    })),
    currency: row.currency,
    payment_method: row.payment_method,
    note: row.note,
    frequency: row.frequency as Frequency,
    start_date: row.start_date,
    end_date: row.end_date,
    paused: row.paused === 1,
    generated_until: row.generated_until,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type StoredRecurringExpense = ReturnType<typeof fromRecurringRow>;

function toColumns(r: RecurringExpense) {
  const { amount, vat } = amountColumns(r);
  return {
    supplier: r.supplier,
    category: r.category,
    label: r.label,
    amount,
    vat,
    currency: r.currency,
    payment_method: r.payment_method,
    note: r.note,
    frequency: r.frequency,
    start_date: r.start_date,
    end_date: r.end_date ?? null,
    paused: r.paused ? 1 : 0,
  };
}

function select(db: Db) {
  return db
    .selectFrom('recurring_expenses as r')
    .leftJoin('expense_categories as c', (join) =>
      join.onRef('c.organization_id', '=', 'r.organization_id').onRef('c.code', '=', 'r.category'),
    )
    .selectAll('r')
    .select('c.label as category_label');
}

export async function insertRecurringExpense(db: Db, params: { organizationId: number; recurring: RecurringExpense }): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('recurring_expenses')
    .values({
      organization_id: params.organizationId,
      ...toColumns(params.recurring),
      generated_until: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRecurringExpense(db: Db, params: { organizationId: number; id: number; recurring: RecurringExpense }) {
  await db
    .updateTable('recurring_expenses')
    .set({ ...toColumns(params.recurring), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function setRecurringPaused(db: Db, params: { organizationId: number; id: number; paused: boolean }) {
  await db
    .updateTable('recurring_expenses')
    .set({ paused: params.paused ? 1 : 0, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function deleteRecurringExpense(db: Db, params: { organizationId: number; id: number }) {
  await db.deleteFrom('recurring_expenses').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}

export async function findRecurringExpense(db: Db, params: { organizationId: number; id: number }) {
  const row = await select(db).where('r.organization_id', '=', params.organizationId).where('r.id', '=', params.id).executeTakeFirst();
  return row ? fromRecurringRow(row) : undefined;
}

export async function listRecurringExpenses(db: Db, organizationId: number) {
  const rows = await select(db).where('r.organization_id', '=', organizationId).orderBy('r.supplier').orderBy('r.id').execute();
  return rows.map(fromRecurringRow);
}

/** Every running recurring expense of every organisation, for the scheduler. */
export async function activeRecurringExpenses(db: Db) {
  const rows = await select(db).where('r.paused', '=', 0).select('r.organization_id').execute();
  return rows.map((r) => ({ organizationId: r.organization_id, ...fromRecurringRow(r) }));
}

/**
 * Makes the occurrences into expenses and moves the recurring expense's mark, in one transaction. The unique index on
 * (recurring_id, occurrence_date) answers a second process that got here too: its insert does nothing.
 */
export async function recordOccurrences(
  db: Db,
  params: {
    organizationId: number;
    recurring: StoredRecurringExpense;
    dates: string[];
    /** Runs in the same transaction for each expense made (its webhook event). */
    onCreated?: (trx: Db, id: number) => Promise<void>;
  },
): Promise<number> {
  if (params.dates.length === 0) return 0;
  const r = params.recurring;
  return db.transaction().execute(async (trx) => {
    let created = 0;
    const now = nowIso();
    for (const date of params.dates) {
      const result = await trx
        .insertInto('expenses')
        .values({
          organization_id: params.organizationId,
          date,
          supplier: r.supplier,
          supplier_siren: '',
          supplier_vat_number: '',
          invoice_number: '',
          tags: '[]',
          category: r.category,
          label: r.label,
          ...amountColumns(r),
          currency: r.currency,
          payment_method: r.payment_method,
          status: 'unpaid',
          due_date: date,
          note: r.note,
          source: 'recurring',
          recurring_id: r.id,
          occurrence_date: date,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(['recurring_id', 'occurrence_date']).where('recurring_id', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!result) continue;
      created += 1;
      await params.onCreated?.(trx, result.id);
    }
    await trx
      .updateTable('recurring_expenses')
      .set({ generated_until: params.dates.at(-1) ?? null })
      .where('id', '=', r.id)
      .where((eb) => eb.or([eb('generated_until', 'is', null), eb('generated_until', '<', params.dates.at(-1) ?? '')]))
      .execute();
    return created;
  });
}
