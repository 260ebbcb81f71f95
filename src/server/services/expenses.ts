import type { Db } from '../db/connection';
import type { Expense, ExpenseCategory, ExpenseListQuery, ExpenseRecord } from '../../shared/schemas/expense';
import { categoryCode } from '../../shared/expense-categories';
import { periodRange } from '../../shared/periods';
import { pageWindow } from '../../shared/schemas/filters';
import { fail, failField } from '../errors';
import { clock } from '../clock';
import {
  deleteExpenseRow,
  findExpense,
  findReceiptFile,
  findSupplierInvoiceId,
  insertExpense,
  linkWaitingCreditNotes,
  setReceipt,
  unlinkCreditNotes,
  updateExpense,
  type ExpenseListParams,
  type ExpenseOrigin,
} from '../db/queries/expenses';
import {
  categoryInUse,
  deleteCategory,
  ensureDefaultCategories,
  findCategory,
  listCategories,
  setCategoryArchived,
  upsertCategory,
} from '../db/queries/expense-categories';
import { checkReceipt, decodeDataUrl, readReceiptFile, removeReceiptFile, writeReceiptFile } from './expense-receipts';
import { emitEvent } from './webhooks';
import { parisDateOf } from '../../shared/paris-date';

const NOT_FOUND = 'Dépense introuvable';
/** A category typed freely is added to the list, booked to « autres charges » until the user maps it. */
const FREE_CATEGORY_ACCOUNT = '658000';

export async function getExpense(db: Db, organizationId: number, id: number): Promise<ExpenseRecord> {
  const expense = await findExpense(db, { organizationId, id });
  if (!expense) fail('NOT_FOUND', NOT_FOUND); // another organisation's id answers the same
  return expense;
}

export async function getCategories(db: Db, organizationId: number): Promise<ExpenseCategory[]> {
  await ensureDefaultCategories(db, organizationId);
  return listCategories(db, organizationId);
}

/**
 * `category` is a code of the organisation's list; a label of the list is read as its code, and free
 * text is added to the list.
 */
export async function resolveCategory(db: Db, organizationId: number, text: string): Promise<string> {
  const categories = await getCategories(db, organizationId);
  const folded = text.trim().toLowerCase();
  const known = categories.find((c) => c.code === text.trim() || c.label.toLowerCase() === folded);
  if (known) return known.code;
  const code = categoryCode(text);
  if (!code) failField('category', 'Catégorie : un nom avec au moins une lettre ou un chiffre');
  if (!categories.some((c) => c.code === code))
    await upsertCategory(db, { organizationId, category: { code, label: text.trim(), account: FREE_CATEGORY_ACCOUNT } });
  return code;
}

/**
 * The supplier invoice a credit note corrects (BT-25), matched on the supplier and the number among the
 * organisation's expenses; none when it is not one of them (an invoice from before the app, another supplier's).
 */
function correctedInvoice(db: Db, organizationId: number, expense: Expense, id?: number): Promise<number | null> {
  if (expense.kind !== 'credit_note' || !expense.preceding_invoice_number) return Promise.resolve(null);
  return findSupplierInvoiceId(db, {
    organizationId,
    number: expense.preceding_invoice_number,
    supplier: expense.supplier,
    siren: expense.supplier_siren,
    vatNumber: expense.supplier_vat_number,
    excludeId: id,
  });
}

/**
 * The other way round: an invoice recorded after the credit notes that correct it gets them linked; one whose number
 * or supplier changed, or turned into a credit note, lets go of those that no longer name it.
 */
async function linkCreditNotesTo(db: Db, organizationId: number, id: number, expense: Expense): Promise<void> {
  await unlinkCreditNotes(db, { organizationId, invoiceId: id });
  if (expense.kind !== 'expense' || !expense.invoice_number) return;
  await linkWaitingCreditNotes(db, {
    organizationId,
    invoiceId: id,
    number: expense.invoice_number,
    supplier: expense.supplier,
    siren: expense.supplier_siren,
    vatNumber: expense.supplier_vat_number,
  });
}

/**
 * Creates an expense. An imported one (origin einvoice) was booked to a category the app guessed: it stays « à
 * vérifier » until the user saves it (editExpense); its file comes as `receipt`, stored in the same transaction,
 * so a failed import leaves no expense behind and announces none (webhook expense.created).
 */
export async function createExpense(
  db: Db,
  organizationId: number,
  expense: Expense,
  origin?: ExpenseOrigin,
  receipt?: { path: string; name: string; type: string; size: number },
  /** A check run first in the same transaction (it may refuse): what the insert relies on cannot change meanwhile. */
  before?: (trx: Db) => Promise<void>,
): Promise<ExpenseRecord> {
  const id = await db.transaction().execute(async (trx) => {
    await before?.(trx);
    return insertExpenseRecord(trx, organizationId, expense, origin, receipt);
  });
  return getExpense(db, organizationId, id);
}

/**
 * A new expense's rows in the caller's transaction: the expense, its links to waiting credit notes, its file and its
 * event, so that whatever else the caller writes with them (a received flow) commits or rolls back with them.
 */
export async function insertExpenseRecord(
  trx: Db,
  organizationId: number,
  expense: Expense,
  origin?: ExpenseOrigin,
  receipt?: { path: string; name: string; type: string; size: number },
): Promise<number> {
  const category = await resolveCategory(trx, organizationId, expense.category);
  // An imported invoice's category is a guess until the user confirms it.
  const imported = origin?.source === 'einvoice' || origin?.source === 'platform';
  const links = { correctsId: await correctedInvoice(trx, organizationId, expense), categoryToCheck: imported };
  const newId = await insertExpense(trx, { organizationId, expense: { ...expense, category }, links, origin });
  await linkCreditNotesTo(trx, organizationId, newId, expense);
  if (receipt) await setReceipt(trx, { organizationId, id: newId, receipt });
  await emitEvent(trx, organizationId, 'expense.created', () => getExpense(trx, organizationId, newId));
  return newId;
}

/** Saving an expense confirms its category: the category is a required field of the form that sends it. */
export async function editExpense(db: Db, organizationId: number, id: number, expense: Expense): Promise<ExpenseRecord> {
  await getExpense(db, organizationId, id);
  const category = await resolveCategory(db, organizationId, expense.category);
  const links = { correctsId: await correctedInvoice(db, organizationId, expense, id), categoryToCheck: false };
  await updateExpense(db, { organizationId, id, expense: { ...expense, category }, links });
  await linkCreditNotesTo(db, organizationId, id, expense);
  return getExpense(db, organizationId, id);
}

export async function deleteExpense(db: Db, dataDir: string, organizationId: number, id: number): Promise<void> {
  await getExpense(db, organizationId, id);
  const file = await findReceiptFile(db, { organizationId, id });
  await unlinkCreditNotes(db, { organizationId, invoiceId: id });
  await deleteExpenseRow(db, { organizationId, id });
  removeReceiptFile(dataDir, file?.receipt_path);
}

/** The list query as the database reads it: the period becomes dates (the documents list's rule). */
export function expenseListParams(organizationId: number, q: ExpenseListQuery): ExpenseListParams {
  const today = parisDateOf(clock.now());
  const range = q.period ? periodRange(q.period, today, { from: q.from, to: q.to }) : { from: q.from, to: q.to };
  return {
    organizationId,
    search: q.search || undefined,
    from: range.from,
    to: range.to,
    category: q.category || undefined,
    supplier: q.supplier || undefined,
    status: q.status,
    kind: q.kind,
    toCheck: q.to_check,
    minAmount: q.min_amount,
    maxAmount: q.max_amount,
    sortBy: q.sort_by,
    sortOrder: q.sort_order,
    ...pageWindow(q),
  };
}

/** Attaches (or replaces) the receipt: checked first, so a refused file writes nothing. */
export async function attachReceipt(
  db: Db,
  dataDir: string,
  organizationId: number,
  id: number,
  upload: { filename: string; bytes: Buffer; declaredType?: string },
): Promise<ExpenseRecord> {
  await getExpense(db, organizationId, id);
  const type = checkReceipt(upload.filename, upload.bytes, upload.declaredType);
  const previous = await findReceiptFile(db, { organizationId, id });
  const stored = writeReceiptFile(dataDir, organizationId, type, upload.bytes);
  try {
    await setReceipt(db, { organizationId, id, receipt: { path: stored, name: upload.filename, type, size: upload.bytes.length } });
  } catch (error) {
    removeReceiptFile(dataDir, stored);
    throw error;
  }
  if (previous?.receipt_path) removeReceiptFile(dataDir, previous.receipt_path);
  return getExpense(db, organizationId, id);
}

export function attachReceiptDataUrl(db: Db, dataDir: string, organizationId: number, id: number, filename: string, dataUrl: string) {
  const { declaredType, bytes } = decodeDataUrl(dataUrl);
  return attachReceipt(db, dataDir, organizationId, id, { filename, bytes, declaredType });
}

export async function removeReceipt(db: Db, dataDir: string, organizationId: number, id: number): Promise<ExpenseRecord> {
  await getExpense(db, organizationId, id);
  const previous = await findReceiptFile(db, { organizationId, id });
  await setReceipt(db, { organizationId, id, receipt: null });
  removeReceiptFile(dataDir, previous?.receipt_path);
  return getExpense(db, organizationId, id);
}

export async function readReceipt(db: Db, dataDir: string, organizationId: number, id: number) {
  await getExpense(db, organizationId, id);
  const file = await findReceiptFile(db, { organizationId, id });
  const bytes = file?.receipt_path ? readReceiptFile(dataDir, file.receipt_path) : null;
  if (!file?.receipt_path || !bytes) fail('NOT_FOUND', 'Cette dépense n’a pas de justificatif');
  return {
    filename: file.receipt_name ?? 'justificatif',
    // An imported XML is shown as text: served as XML, a crafted file could run XHTML script on the app's origin.
    content_type: file.receipt_type === 'application/xml' ? 'text/plain; charset=utf-8' : (file.receipt_type ?? 'application/octet-stream'),
    content_base64: bytes.toString('base64'),
  };
}

export async function saveCategory(db: Db, organizationId: number, input: { code?: string; label: string; account: string }) {
  await ensureDefaultCategories(db, organizationId);
  const code = input.code ? input.code : categoryCode(input.label);
  if (!code) fail('BAD_REQUEST', 'Catégorie : un nom avec au moins une lettre ou un chiffre');
  await upsertCategory(db, { organizationId, category: { code, label: input.label, account: input.account } });
  return (await findCategory(db, { organizationId, code })) as ExpenseCategory;
}

/**
 * Deletes a category no expense uses; one in use is archived instead, so that its expenses keep their label and
 * account. Answers what was done.
 */
export async function removeCategory(db: Db, organizationId: number, code: string): Promise<'deleted' | 'archived'> {
  if (!(await findCategory(db, { organizationId, code }))) fail('NOT_FOUND', 'Catégorie introuvable');
  if (await categoryInUse(db, { organizationId, code })) {
    await setCategoryArchived(db, { organizationId, code, archived: true });
    return 'archived';
  }
  await deleteCategory(db, { organizationId, code });
  return 'deleted';
}

export async function archiveCategory(db: Db, organizationId: number, code: string, archived: boolean): Promise<ExpenseCategory> {
  if (!(await findCategory(db, { organizationId, code }))) fail('NOT_FOUND', 'Catégorie introuvable');
  await setCategoryArchived(db, { organizationId, code, archived });
  return (await findCategory(db, { organizationId, code })) as ExpenseCategory;
}
