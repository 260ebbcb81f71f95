import { fail } from '../errors';
import { documentOfRow, type DocumentItemRow } from '../db/queries/document-mapping';
import type { PaymentRow, SaleRows } from '../db/queries/fec';
import { currencyPrecision } from '../../shared/currencies';
import { convertAmount } from '../../shared/exchange';
import { fromStoredUnits, INPUT_SCALE, rescale, toUnits4, unitsToDecimalText } from '../../shared/money';
import type { AccountingSettings } from '../../shared/schemas/accounting';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { customerPartySchema } from '../../shared/schemas/document-parties';
import { type Conversion, type FecEntry, paymentEntry, type SaleDocument, saleEntry, sameCurrency } from '../../shared/fec/entries';
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

/** The FEC text of a period: the sales journal of its invoices and credit notes, the bank journal of its payments. */
export function fecBook(source: FecSource): string {
  const convert = conversionOf(source.base, source.currentRates);
  // Grouped once by the invoice that deducts them: looked up per invoice, not searched for (a year of invoices × deposits).
  const deductedBy = new Map<number, StoredDocument[]>();
  for (const deposit of documentsOf(source.deposits)) {
    if (deposit.deducted_by_id === null) continue;
    const group = deductedBy.get(deposit.deducted_by_id);
    if (group) group.push(deposit);
    else deductedBy.set(deposit.deducted_by_id, [deposit]);
  }
  const entries: FecEntry[] = [];
  for (const doc of documentsOf(source.sales)) {
    entries.push(saleEntry(saleDocument(doc, deductedBy.get(doc.id) ?? []), source.accounts, convert(doc)));
  }
  for (const payment of source.payments.flatMap((page) => unpack(page))) {
    const customer = payment.customer_snapshot === null ? null : customerPartySchema.parse(JSON.parse(payment.customer_snapshot));
    const record = {
      invoiceNumber: payment.number ?? '',
      date: payment.date,
      validDate: dayOf(payment.created_at, payment.date),
      recordedAt: payment.created_at,
      customer: { number: customer?.number || 'DIVERS', name: customer?.name || payment.customer_name || 'Client divers' },
      amount: fromStoredUnits(payment.amount),
      method: payment.method,
    };
    // At the invoice's rate of issue: the payment clears the receivable as it was booked.
    entries.push(paymentEntry(record, source.accounts, convert(payment)));
  }
  return fecText(entries, currencyPrecision(source.base));
}
