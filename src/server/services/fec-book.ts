import { fail } from '../errors';
import { documentOfRow, type DocumentItemRow } from '../db/queries/document-mapping';
import type { BankLineRows, ExpenseRow, PaymentRow, SaleRows } from '../db/queries/fec';
import { currencyPrecision } from '../../shared/currencies';
import { convertAmount } from '../../shared/exchange';
import { fromStoredUnits, INPUT_SCALE, rescale, toUnits4, unitsToDecimalText } from '../../shared/money';
import type { AccountingSettings } from '../../shared/schemas/accounting';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { customerPartySchema } from '../../shared/schemas/document-parties';
import { type Conversion, type FecEntry, paymentEntry, type SaleDocument, saleEntry, sameCurrency } from '../../shared/fec/entries';
import {
  bankLineEntry,
  expensePaymentEntry,
  type PurchaseRecord,
  purchaseEntry,
  reversedBankPaymentEntry,
} from '../../shared/fec/purchase-entries';
import { supplierAccountNumber } from '../../shared/supplier-identity';
import { expenseVatTransfer, salesOnReceipts } from '../../shared/fec/vat-on-receipts';
import { purchaseNature } from '../../shared/vat-return/purchases';
import type { SaleDocument as VatSaleDocument, VatBasis } from '../../shared/vat-return/sales';
import { fecText } from '../../shared/fec/format';
import { parisDateOf } from '../../shared/paris-date';
import { type Packed, unpack } from '../workers/packed';

/**
 * Everything the FEC of a period is made from, read beforehand: plain rows and settings, so that the book is built in
 * a worker thread (a year of invoices is seconds of parsing and formatting that would otherwise hold the event loop).
 */
export type FecSource = {
  /** Pages of rows, packed as they were read (workers/packed.ts). */
  sales: Packed<SaleRows>[];
  deposits: Packed<SaleRows>[];
  payments: Packed<PaymentRow[]>[];
  expenses: Packed<ExpenseRow[]>[];
  handPaidExpenses: Packed<ExpenseRow[]>[];
  /** Expenses paid in the year, however: their deductible VAT on services leaves 44564 that day. */
  paidExpenses: Packed<ExpenseRow[]>[];
  /** The sales as the VAT return reads them, and its basis: what waits on 44574 and when it falls due. */
  receipts: { sales: VatSaleDocument[]; basis: VatBasis; from: string | null; to: string };
  bankLines: Packed<BankLineRows>[];
  /** The organisation's bank accounts, oldest first: the rank of each names its 512 sub-account. */
  bankAccounts: { id: number; name: string }[];
  accounts: AccountingSettings;
  /** The accounting currency (the base currency of Paramètres → Devises). */
  base: string;
  /** Today's rates of the enabled currencies, for a document issued before rates were kept on it. */
  currentRates: Record<string, string>;
};

const dayOf = (iso: string | null, fallback: string) => (iso ? parisDateOf(iso) : fallback);

function documentsOf(pages: Packed<SaleRows>[]): StoredDocument[] {
  return pages.flatMap((page) => {
    const rows = unpack(page);
    const lines = new Map<number, DocumentItemRow[]>();
    for (const item of rows.items) {
      const group = lines.get(item.document_id);
      if (group) group.push(item);
      else lines.set(item.document_id, [item]);
    }
    return rows.documents.map((row) => documentOfRow(row, lines.get(row.id) ?? []));
  });
}

/** A customer's auxiliary account: its customer number, kept on the document at issue. */
function customerOf(doc: StoredDocument) {
  return { number: doc.customer?.number || 'DIVERS', name: doc.customer?.name || doc.customer_name || 'Client divers' };
}

/** The same from the columns a payment or a bank match reads. */
function customerOfRow(row: { customer_snapshot: string | null; customer_name: string | null }) {
  const customer = row.customer_snapshot === null ? null : customerPartySchema.parse(JSON.parse(row.customer_snapshot));
  return { number: customer?.number || 'DIVERS', name: customer?.name || row.customer_name || 'Client divers' };
}

/** A supplier's auxiliary account (supplier-identity.ts) and its name. */
function supplierOf(row: { supplier: string; supplier_siren: string; supplier_vat_number: string }) {
  return {
    number: supplierAccountNumber({ siren: row.supplier_siren, vatNumber: row.supplier_vat_number, name: row.supplier }),
    name: row.supplier,
  };
}

/** The piece an expense is: its supplier's invoice number, else its own number in Facturier. */
const expenseReference = (row: { id: number; invoice_number: string }) => row.invoice_number || `DEP-${row.id}`;

function purchaseOf(row: ExpenseRow): PurchaseRecord {
  return {
    kind: row.kind === 'credit_note' ? 'credit_note' : 'expense',
    reference: expenseReference(row),
    date: row.date,
    validDate: dayOf(row.created_at, row.date),
    recordedAt: row.created_at,
    supplier: supplierOf(row),
    // A category deleted since: the general « achats non stockés » account keeps the entry whole.
    account: row.category_account ?? '6068',
    accountLabel: row.category_label ?? 'Autres matières et fournitures',
    amount: fromStoredUnits(row.amount),
    vat: (JSON.parse(row.vat) as { rate: number; amount: number; deductible: boolean }[]).map((v) => ({
      rate: Number(v.rate),
      amount: fromStoredUnits(v.amount),
      deductible: v.deductible,
    })),
    reverseCharge: row.reverse_charge === 'goods' || row.reverse_charge === 'services' ? row.reverse_charge : '',
    // As the VAT return decides it: a category deleted since leaves an expense of services.
    deductibleOnPayment: purchaseNature(row.category_account ?? '') === 'services',
  };
}

function saleDocument(doc: StoredDocument, deposits: StoredDocument[]): SaleDocument {
  const taxes = (d: StoredDocument) => d.totals.taxes.map((t) => ({ rate: t.rate, amount: t.amount }));
  return {
    type: doc.type === 'credit' ? 'credit' : 'invoice',
    deposit: doc.kind === 'deposit',
    number: doc.number ?? '',
    date: doc.date,
    validDate: dayOf(doc.issued_at, doc.date),
    recordedAt: doc.issued_at ?? doc.date,
    customer: customerOf(doc),
    total: doc.totals.total,
    shipping: doc.totals.shipping,
    taxes: taxes(doc),
    lines: doc.items.map((l) => ({ kind: l.kind, net: l.gross_total })),
    deductions: deposits.map((d) => ({ number: d.number ?? '', total: d.totals.total, taxes: taxes(d) })),
  };
}

/**
 * How the amounts of a document reach the accounting currency: the base as is, another at the rate kept when the
 * document was issued (its own amount kept in Montantdevise/Idevise), so an export made after the rate moved books what
 * was booked then. Only a document issued before rates were kept has none: today's rate is the only one left.
 */
function conversionOf(base: string, currentRates: Record<string, string>) {
  const precision = currencyPrecision(base);
  return (doc: { currency: string; exchange_rate: string | null }): Conversion => {
    const { currency } = doc;
    if (currency === base) return sameCurrency(precision);
    const rate = doc.exchange_rate ?? currentRates[currency];
    if (rate === undefined)
      fail('CONFLICT', `Devise ${currency} : aucun taux de change vers ${base}, ajoutez-la dans Paramètres → Devises pour exporter le FEC`);
    const sourcePrecision = currencyPrecision(currency);
    return {
      precision,
      currency,
      sourcePrecision,
      convert: (units) => {
        const converted = convertAmount(unitsToDecimalText(units, sourcePrecision), { code: currency, rate }, { code: base, rate: '1' });
        return rescale(toUnits4(converted), INPUT_SCALE, precision);
      },
    };
  };
}

/**
 * The FEC text of a fiscal year: the sales journal of its invoices and credit notes, the purchases journal of its
 * expenses, the bank journal of its statement lines (a connected account) and of the payments recorded by hand, and
 * the miscellaneous journal of the bank payments reversed.
 */
export function fecBook(source: FecSource): string {
  const convert = conversionOf(source.base, source.currentRates);
  const { accounts } = source;
  // Grouped once by the invoice that deducts them: looked up per invoice, not searched for (a year of invoices × deposits).
  const deductedBy = new Map<number, StoredDocument[]>();
  for (const deposit of documentsOf(source.deposits)) {
    if (deposit.deducted_by_id === null) continue;
    const group = deductedBy.get(deposit.deducted_by_id);
    if (group) group.push(deposit);
    else deductedBy.set(deposit.deducted_by_id, [deposit]);
  }
  const precision = currencyPrecision(source.base);
  const onReceipts = salesOnReceipts(source.receipts.sales, source.receipts, accounts, precision);
  const entries: FecEntry[] = [...onReceipts.transfers];
  for (const doc of documentsOf(source.sales)) {
    const held = onReceipts.held.get(doc.id) ?? 0n;
    entries.push(saleEntry(saleDocument(doc, deductedBy.get(doc.id) ?? []), accounts, convert(doc), held));
  }
  for (const payment of source.payments.flatMap((page) => unpack(page))) {
    const customer = customerOfRow(payment);
    const validDate = dayOf(payment.created_at, payment.date);
    // At the invoice's rate of issue: the payment clears the receivable as it was booked.
    if (payment.reverses_bank_payment) {
      const reversal = { invoiceNumber: payment.number ?? '', date: payment.date, validDate, recordedAt: payment.created_at, customer };
      const fee = fromStoredUnits(payment.reversed_fee ?? 0);
      entries.push(
        reversedBankPaymentEntry(
          { ...reversal, amount: -fromStoredUnits(payment.amount), ...(fee > 0 ? { fee } : {}) },
          accounts,
          convert(payment),
        ),
      );
      continue;
    }
    const record = {
      invoiceNumber: payment.number ?? '',
      date: payment.date,
      validDate,
      recordedAt: payment.created_at,
      customer,
      amount: fromStoredUnits(payment.amount),
      method: payment.method,
      // A card processor's fee, booked to bank charges, when it was kept in the invoice's currency (converted alike).
      ...(payment.fee > 0 && (payment.fee_currency ?? payment.currency) === payment.currency ? { fee: fromStoredUnits(payment.fee) } : {}),
    };
    entries.push(paymentEntry(record, accounts, convert(payment)));
  }
  const noRate = (row: { currency: string }) => ({ currency: row.currency, exchange_rate: null });
  for (const row of source.expenses.flatMap((page) => unpack(page)))
    entries.push(purchaseEntry(purchaseOf(row), accounts, convert(noRate(row))));
  const waitsOnPayment = accounts.deductible_vat_on_receipts !== accounts.deductible_vat;
  for (const row of waitsOnPayment ? source.paidExpenses.flatMap((page) => unpack(page)) : []) {
    const purchase = purchaseOf(row);
    if (!purchase.deductibleOnPayment || purchase.reverseCharge !== '') continue;
    // The very lines its purchase entry booked to 44564, converted alike: the waiting account clears to the cent.
    const booked = purchaseEntry(purchase, accounts, convert(noRate(row))).lines.filter(
      (l) => l.account === accounts.deductible_vat_on_receipts,
    );
    const deductible = booked.reduce((a, l) => a + l.debit - l.credit, 0n);
    if (deductible === 0n) continue;
    const paidAt = row.paid_at ?? row.date;
    entries.push(expenseVatTransfer({ reference: purchase.reference, supplier: purchase.supplier.name, paidAt, deductible }, accounts));
  }
  for (const row of source.handPaidExpenses.flatMap((page) => unpack(page))) {
    const date = row.paid_at ?? row.date;
    const payment = {
      reference: expenseReference(row),
      date,
      validDate: dayOf(row.updated_at, date),
      recordedAt: row.updated_at,
      supplier: supplierOf(row),
      amount: fromStoredUnits(row.amount),
    };
    entries.push(expensePaymentEntry(payment, accounts, convert(noRate(row))));
  }
  const rank = new Map(
    source.bankAccounts.map((a, i) => [a.id, { account: `${accounts.bank}${String(i + 1).padStart(2, '0')}`, label: `Banque ${a.name}` }]),
  );
  for (const page of source.bankLines) {
    const { lines, invoices, expenses } = unpack(page);
    for (const line of lines) {
      const parts = [
        ...invoices
          .filter((m) => m.transaction_id === line.id)
          .map((m) => ({
            kind: 'invoice' as const,
            amount: fromStoredUnits(m.amount),
            // What a processor or the bank kept before the line: the line's currency is the invoice's.
            ...(m.fee > 0 && (m.fee_currency ?? line.currency) === line.currency ? { fee: fromStoredUnits(m.fee) } : {}),
            party: customerOfRow(m),
            reference: m.number ?? '',
          })),
        ...expenses
          .filter((m) => m.transaction_id === line.id)
          .map((m) => ({
            kind: 'expense' as const,
            amount: fromStoredUnits(m.amount),
            party: supplierOf(m),
            reference: expenseReference(m),
          })),
      ];
      const record = {
        reference: line.reference || `OP-${line.id}`,
        date: line.date,
        validDate: dayOf(line.created_at, line.date),
        recordedAt: line.created_at,
        label: line.label,
        bank: rank.get(line.account_id) ?? { account: accounts.bank, label: 'Banque' },
        amount: fromStoredUnits(line.amount),
        parts,
      };
      entries.push(bankLineEntry(record, accounts, convert(noRate(line))));
    }
  }
  return fecText(entries, precision);
}
