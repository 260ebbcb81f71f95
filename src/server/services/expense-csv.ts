import type { Db } from '../db/connection';
import type { ExpenseListQuery, ExpenseRecord } from '../../shared/schemas/expense';
import { EXPENSE_KIND_LABELS, EXPENSE_STATUS_LABELS } from '../../shared/schemas/expense';
import { PAYMENT_METHODS, type PaymentMethod } from '../../shared/status';
import { frenchDecimal } from '../../shared/csv';
import { toDecimalString } from '../../shared/money';
import { allExpenses } from '../db/queries/expenses';
import { csvFile, type CsvColumn } from './csv-table';
import { expenseListParams } from './expenses';

const amount = (n: number) => toDecimalString(n, 2).replace('.', ',');
const vatAt = (e: ExpenseRecord, deductible: boolean) =>
  e.vat
    .filter((v) => v.deductible === deductible)
    .map((v) => `${frenchDecimal(v.rate)} % : ${amount(v.amount)}`)
    .join(' | ');

/**
 * The expenses CSV, for French Excel (the customers export's dialect) and the accountant: the account of each line.
 * A credit note's amounts are negative, as stored, so that a column's sum is the net expense.
 */
const COLUMNS: CsvColumn<ExpenseRecord>[] = [
  { header: 'Date', read: (e) => e.date },
  { header: 'Fournisseur', read: (e) => e.supplier },
  { header: 'SIREN fournisseur', code: true, read: (e) => e.supplier_siren },
  { header: 'N° TVA fournisseur', read: (e) => e.supplier_vat_number },
  { header: 'Type', read: (e) => EXPENSE_KIND_LABELS[e.kind] },
  { header: 'N° de facture', code: true, read: (e) => e.invoice_number },
  { header: 'Facture corrigée', code: true, read: (e) => e.preceding_invoice_number },
  { header: 'Catégorie', read: (e) => e.category_label },
  { header: 'Compte', read: (e) => e.category_account },
  { header: 'Libellé', read: (e) => e.label },
  { header: 'Montant HT', read: (e) => amount(e.net) },
  { header: 'TVA', read: (e) => amount(e.vat_total) },
  { header: 'TVA déductible', read: (e) => amount(e.deductible_vat) },
  { header: 'Montant TTC', read: (e) => amount(e.amount) },
  { header: 'Détail TVA déductible', read: (e) => vatAt(e, true) },
  { header: 'Détail TVA non déductible', read: (e) => vatAt(e, false) },
  { header: 'Devise', read: (e) => e.currency },
  { header: 'Moyen de paiement', read: (e) => PAYMENT_METHODS[e.payment_method as PaymentMethod] ?? e.payment_method },
  { header: 'Statut', read: (e) => EXPENSE_STATUS_LABELS[e.status] },
  { header: 'Payée le', read: (e) => e.paid_at ?? '' },
  { header: 'Échéance', read: (e) => e.due_date ?? '' },
  { header: 'Étiquettes', read: (e) => e.tags.join(', ') },
  { header: 'Justificatif', read: (e) => e.receipt?.filename ?? '' },
  { header: 'Note', read: (e) => e.note },
];

/** The filtered set, whole (the page and its size are ignored). */
export async function exportExpenses(db: Db, organizationId: number, query: ExpenseListQuery) {
  const { offset: _offset, limit: _limit, ...params } = expenseListParams(organizationId, query);
  return csvFile('depenses', COLUMNS, await allExpenses(db, params));
}
