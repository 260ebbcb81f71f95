import type { Db } from '../db/connection';
import type { RecurringExpense, RecurringExpenseRecord } from '../../shared/schemas/expense';
import { nextOccurrence } from '../../shared/recurrence';
import { fail } from '../errors';
import {
  deleteRecurringExpense,
  findRecurringExpense,
  insertRecurringExpense,
  listRecurringExpenses,
  setRecurringPaused,
  updateRecurringExpense,
  type StoredRecurringExpense,
} from '../db/queries/recurring-expenses';
import { resolveCategory } from './expenses';

const withNext = (r: StoredRecurringExpense): RecurringExpenseRecord => ({ ...r, next_date: nextOccurrence(r, r.generated_until) });

export async function getRecurringExpense(db: Db, organizationId: number, id: number): Promise<RecurringExpenseRecord> {
  const found = await findRecurringExpense(db, { organizationId, id });
  if (!found) fail('NOT_FOUND', 'Dépense répétitive introuvable');
  return withNext(found);
}

export async function listRecurring(db: Db, organizationId: number) {
  const data = (await listRecurringExpenses(db, organizationId)).map(withNext);
  return { total: data.length, data };
}

export async function createRecurringExpense(db: Db, organizationId: number, input: RecurringExpense) {
  const category = await resolveCategory(db, organizationId, input.category);
  const id = await insertRecurringExpense(db, { organizationId, recurring: { ...input, category } });
  return getRecurringExpense(db, organizationId, id);
}

/** Occurrences already made stay; a new start or frequency applies to those still to come. */
export async function editRecurringExpense(db: Db, organizationId: number, id: number, input: RecurringExpense) {
  await getRecurringExpense(db, organizationId, id);
  const category = await resolveCategory(db, organizationId, input.category);
  await updateRecurringExpense(db, { organizationId, id, recurring: { ...input, category } });
  return getRecurringExpense(db, organizationId, id);
}

export async function pauseRecurringExpense(db: Db, organizationId: number, id: number, paused: boolean) {
  await getRecurringExpense(db, organizationId, id);
  await setRecurringPaused(db, { organizationId, id, paused });
  return getRecurringExpense(db, organizationId, id);
}

/** The expenses it made are kept (they were spent). */
export async function removeRecurringExpense(db: Db, organizationId: number, id: number) {
  await getRecurringExpense(db, organizationId, id);
  await deleteRecurringExpense(db, { organizationId, id });
}
