import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import { type Expense, expenseInputSchema, type ExpenseRecord, type ReceiptType } from '../../shared/schemas/expense';
import { formatDateShort } from '../../shared/format';
import { money, neg, toDecimalString } from '../../shared/money';
import { fail } from '../errors';
import { lockRow } from '../db/dialect';
import { expensesWithInvoiceNumber, findImportedExpenseId } from '../db/queries/expenses';
import { foreignVatReason } from '../../shared/foreign-vat';
import { sameSupplier } from '../../shared/supplier-identity';
import type { SupplierInvoice } from '../einvoice/supplier-invoice';
import { runHeavy } from '../workers/heavy-work';
import { createExpense, getExpense } from './expenses';
import { removeReceiptFile, tooBig, writeReceiptFile } from './expense-receipts';

/** Until the user confirms it, an imported invoice is booked to « Autres charges ». */
const IMPORT_CATEGORY = 'autres';

export type ImportedExpense = { expense: ExpenseRecord; warnings: string[] };

/** Strict base64: Node's decoder skips what it does not know, so a mangled upload would decode into garbage. */
function decodeBase64(content: string): Buffer {
  const compact = content.replace(/\s+/g, '');
  const bytes = Buffer.from(compact, 'base64');
  if (compact.length % 4 !== 0 || bytes.toString('base64') !== compact)
    fail('BAD_REQUEST', 'Fichier : le contenu n’est pas du base64 valide (le fichier a été abîmé à l’envoi)');
  return bytes;
}

/**
 * The expense an e-invoice fills. A supplier's company or VAT number this app would refuse (a foreign scheme, a bad
 * key) is left out with a warning rather than refusing the invoice; anything else wrong is the file's fault.
 */
function expenseFrom(invoice: SupplierInvoice, warnings: string[]) {
  // An invoice with a negative total is a credit in all but name (and a negative credit note, a charge): the expense
  // keeps its amounts positive and its kind says which way they go.
  const flipped = money(invoice.total).lt(0);
  const positive = (n: string) => (flipped ? toDecimalString(neg(n)) : n);
  const kind = flipped ? (invoice.kind === 'credit_note' ? 'expense' : 'credit_note') : invoice.kind;
  // Another country's VAT is that country's tax: not deductible here, said so rather than left for the user to spot.
  const foreign = foreignVatReason(invoice.supplierCountry, invoice.supplierVatNumber);
  if (foreign && invoice.vat.some((v) => !money(v.amount).eq(0))) warnings.push(foreign);
  const prepaid = money(invoice.prepaid);
  const candidate = {
    date: invoice.issueDate,
    supplier: invoice.supplier,
    supplier_siren: invoice.supplierSiren,
    supplier_vat_number: invoice.supplierVatNumber,
    supplier_country: /^[A-Z]{2}$/.test(invoice.supplierCountry) ? invoice.supplierCountry : '',
    prepaid_amount: prepaid.gt(0) && !flipped ? invoice.prepaid : '0',
    payment_terms: invoice.paymentTerms,
    category: IMPORT_CATEGORY,
    label: `${kind === 'credit_note' ? 'Avoir' : 'Facture'} ${invoice.number}`.slice(0, 300),
    amount: positive(invoice.total),
    vat: invoice.vat.map((v) => ({ rate: v.rate, amount: positive(v.amount), deductible: foreign === null })),
    kind,
    preceding_invoice_number: kind === 'credit_note' ? invoice.precedingInvoiceNumber.slice(0, 100) : '',
    currency: invoice.currency,
    invoice_number: invoice.number,
    due_date: invoice.dueDate,
    // Prepaid in full (a card payment at order): nothing is awaited from the bank.
    status: prepaid.gt(0) && !prepaid.lt(money(invoice.total)) ? 'paid' : 'unpaid',
  };
  const first = expenseInputSchema.safeParse(candidate);
  for (const field of ['supplier_siren', 'supplier_vat_number', 'supplier_country'] as const) {
    if (first.success || !first.error.issues.some((i) => i.path[0] === field)) continue;
    const name = { supplier_siren: 'SIREN', supplier_vat_number: 'N° de TVA', supplier_country: 'Pays' }[field];
    warnings.push(`${name} du fournisseur « ${candidate[field]} » non repris : invalide`);
    candidate[field] = '';
  }
  const parsed = expenseInputSchema.safeParse(candidate);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    fail('BAD_REQUEST', `Facture illisible comme dépense : ${first?.message ?? 'données manquantes'}`);
  }
  return parsed.data;
}

/** The refusal of a file already imported, naming the expense it became. */
export async function alreadyImportedMessage(db: Db, organizationId: number, id: number): Promise<string> {
  const existing = await getExpense(db, organizationId, id);
  const number = existing.invoice_number ? ` n° ${existing.invoice_number}` : '';
  return `Cette facture a déjà été importée : facture${number} de ${existing.supplier} du ${formatDateShort(existing.date)} (dépense ${existing.id})`;
}

const alreadyImported = async (db: Db, organizationId: number, id: number): Promise<never> =>
  fail('CONFLICT', await alreadyImportedMessage(db, organizationId, id));

/**
 * The expense that already holds this supplier's invoice — the same number from the same supplier, whatever file
 * carried it (its PDF, then its XML, then the platform's copy) — or undefined.
 */
export async function findSameSupplierInvoice(db: Db, organizationId: number, expense: Expense): Promise<number | undefined> {
  if (!expense.invoice_number) return undefined;
  const candidates = await expensesWithInvoiceNumber(db, { organizationId, invoiceNumber: expense.invoice_number });
  const incoming = { siren: expense.supplier_siren, vatNumber: expense.supplier_vat_number, name: expense.supplier };
  return candidates.find((c) => sameSupplier(incoming, { siren: c.supplier_siren, vatNumber: c.supplier_vat_number, name: c.supplier }))
    ?.id;
}

/** A supplier's file read into the expense it makes, before anything is written. */
export type SupplierUpload = { expense: Expense; warnings: string[]; type: ReceiptType; sha256: string };

/**
 * Reads a supplier's Factur-X/ZUGFeRD PDF, CII or UBL into the expense it makes; 400 in French for anything that is not
 * such an invoice (empty, too big, unreadable, not an invoice, missing what an expense needs).
 */
export async function readSupplierUpload(filename: string, bytes: Buffer): Promise<SupplierUpload> {
  const big = tooBig('Fichier', bytes.length);
  if (big) fail('BAD_REQUEST', big);
  if (bytes.length === 0) fail('BAD_REQUEST', 'Fichier : le fichier est vide');
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  // Reading the PDF or XML and running the rules takes seconds on a large file: in a worker thread.
  const { invoice, warnings, type } = await runHeavy('readSupplierFile', [filename, bytes]);
  return { expense: expenseFrom(invoice, warnings), warnings, type, sha256 };
}

/**
 * A supplier's Factur-X/ZUGFeRD PDF, CII or UBL becomes a new expense, the file kept as its receipt. Everything is
 * checked before anything is written; the same file twice (same SHA-256) is refused by name, and by the unique
 * index should two uploads race.
 */
export async function importSupplierInvoice(
  db: Db,
  dataDir: string,
  organizationId: number,
  upload: { filename: string; content_base64: string },
): Promise<ImportedExpense> {
  const bytes = decodeBase64(upload.content_base64);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const known = await findImportedExpenseId(db, { organizationId, sha256 });
  if (known !== undefined) await alreadyImported(db, organizationId, known);
  const { expense, warnings, type } = await readSupplierUpload(upload.filename, bytes);
  const same = await findSameSupplierInvoice(db, organizationId, expense);
  if (same !== undefined) await alreadyImported(db, organizationId, same);

  const stored = writeReceiptFile(dataDir, organizationId, type, bytes);
  let id: number;
  try {
    // One transaction: the expense, its links to waiting credit notes and its file, or none of them; the same invoice
    // looked for again inside it, so that two files of one invoice sent at once make one expense.
    const receipt = { path: stored, name: upload.filename, type, size: bytes.length };
    id = (
      await createExpense(db, organizationId, expense, { source: 'einvoice', sourceSha256: sha256 }, receipt, async (trx) => {
        // PostgreSQL runs imports side by side: one organisation's imports wait for each other here (SQLite: one writer).
        await lockRow(trx, 'organizations', organizationId);
        const raced = await findSameSupplierInvoice(trx, organizationId, expense);
        if (raced !== undefined) await alreadyImported(trx, organizationId, raced);
      })
    ).id;
  } catch (error) {
    removeReceiptFile(dataDir, stored);
    const raced = await findImportedExpenseId(db, { organizationId, sha256 });
    if (raced !== undefined) await alreadyImported(db, organizationId, raced);
    throw error;
  }
  return { expense: await getExpense(db, organizationId, id), warnings };
}
