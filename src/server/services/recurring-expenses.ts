import type { Db } from '../db/connection';
import type { RecurringExpense, RecurringExpenseRecord } from '../../shared/schemas/expense';
import { nextOccurrence, occurrencesBetween } from '../../shared/recurrence';
import { formatDateShort } from '../../shared/format';
import { plural } from '../../shared/french';
import { fail } from '../errors';
import {
  deleteRecurringExpense,
  findRecurringExpense,
  insertRecurringExpense,
  listRecurringExpenses,
  recordOccurrences,
  setRecurringPaused,
  updateRecurringExpense,
  type StoredRecurringExpense,
} from '../db/queries/recurring-expenses';
import { getExpense, resolveCategory } from './expenses';
import { emitEvent } from './webhooks';

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

/**
 * « Générer maintenant »: makes the expenses due up to today that the scheduler has not made yet, else the next one
 * ahead of its date. Never twice for one date (a unique index per recurring expense and date), and never more than
 * one ahead: once the next date's expense exists, a second click is refused until that date has passed.
 */
export async function generateRecurringExpenseNow(db: Db, organizationId: number, id: number, today: string) {
  const recurring = await getRecurringExpense(db, organizationId, id);
  if (recurring.paused) fail('CONFLICT', 'Cette dépense répétitive est en pause : reprenez-la pour la générer');
  const due = occurrencesBetween(recurring, recurring.generated_until, today);
  if (due.length === 0 && recurring.generated_until && recurring.generated_until > today)
    fail(
      'CONFLICT',
      `La dépense du ${formatDateShort(recurring.generated_until)} est déjà créée : la suivante pourra l’être à partir de cette date`,
    );
  const next = nextOccurrence(recurring, recurring.generated_until);
  const dates = due.length > 0 ? due : next ? [next] : [];
  if (dates.length === 0) fail('CONFLICT', 'Cette dépense répétitive est terminée : sa date de fin est passée');
  const created = await recordOccurrences(db, {
    organizationId,
    recurring,
    dates,
    onCreated: (trx, expenseId) =>
      emitEvent(trx, organizationId, 'expense.created', () => getExpense(trx, organizationId, expenseId)).then(() => {}),
  });
  if (created === 0) fail('CONFLICT', 'Cette dépense vient d’être générée par ailleurs : rechargez la page');
  const messages =
    created === 1
      ? `Dépense du ${formatDateShort(dates.at(-1) ?? today)} créée`
      : `${plural(created, 'dépense')} créées, jusqu’au ${formatDateShort(dates.at(-1) ?? today)}`;
  return { messages, data: await getRecurringExpense(db, organizationId, id) };
}
