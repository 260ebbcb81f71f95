import { add, allocate, div, money, sub, ZERO, type Money, type MoneyInput } from '../money';
import { formatDateShort } from '../format';
import { rateLine, type Ca3Item } from './ca3-lines';

/**
 * Deductible VAT of the expenses (CGI art. 271): on goods when invoiced, on services only once paid (art. 271-I-2:
 * the right to deduct arises when the VAT becomes due at the supplier's, on receipt for services), on fixed assets
 * when invoiced, on their own line (19). A supplier's credit note (negative amounts) comes off on the same basis.
 */

export type PurchaseNature = 'goods' | 'services' | 'asset';

/**
 * What an expense buys, from the account of its category (plan comptable général): class 2 fixed assets; purchases of
 * goods and supplies (60, but 604 « achats d'études et prestations de services »); everything else services.
 */
export function purchaseNature(account: string): PurchaseNature {
  if (account.startsWith('2')) return 'asset';
  if (account.startsWith('60') && !account.startsWith('604')) return 'goods';
  return 'services';
}

export interface VatRow {
  rate: number;
  amount: MoneyInput;
  deductible: boolean;
}

/**
 * The base excluding VAT of each VAT row, from the amounts: TTC less the VAT is the HT, shared between the taxed rows
 * in proportion of VAT ÷ rate. With one rate the base is exactly TTC − VAT (0,27 with 0,05 of VAT: 0,22, where VAT ÷
 * rate would say 0,25). Untaxed rows get none.
 */
export function vatRowBases(amount: MoneyInput, rows: readonly VatRow[], options: { selfAssessed?: boolean } = {}): Money[] {
  const taxed = rows.map((r) => r.rate > 0 && !money(r.amount).eq(0));
  // Self-assessed VAT was not paid to the supplier: the whole amount is the base.
  const paid = rows.reduce<Money>((s, r) => add(s, r.amount), ZERO);
  const net = options.selfAssessed ? money(amount) : sub(amount, paid);
  const weights = rows.map((r, k) => (taxed[k] ? div(r.amount, r.rate) : ZERO));
  if (!taxed.some(Boolean)) return rows.map(() => ZERO);
  const shares = allocate(net.abs(), weights, 2);
  return rows.map((_, k) => (taxed[k] ? (net.lt(0) ? (shares[k] ?? ZERO).times(-1) : (shares[k] ?? ZERO)) : ZERO));
}

export interface PurchaseExpense {
  id: number;
  /** The supplier's invoice number, or the expense's label. */
  reference: string;
  supplier: string;
  date: string;
  /** The day it was paid; null while unpaid. */
  paidAt: string | null;
  nature: PurchaseNature;
  /** VAT self-assessed by the buyer: an intra-community acquisition of goods, services from abroad; '' none. */
  reverseCharge: '' | 'goods' | 'services';
  /** TTC in the base currency (HT when the VAT is self-assessed), negative on a supplier's credit note, as the VAT rows. */
  amount: MoneyInput;
  vat: readonly VatRow[];
}

/**
 * The items of the period's purchases: each expense's deductible VAT per rate, with its base (lines 19 and 20). VAT
 * self-assessed is due and deductible at once, on the supplier's invoice date (the chargeable event the buyer
 * declares): its base on B2 (goods from the EU, with its VAT for line 17) or A3 (services from abroad), its VAT on the
 * rate's line, and deducted on 19 or 20 unless marked not deductible.
 */
export function purchaseItems(expenses: readonly PurchaseExpense[], period: { from: string; to: string }): Ca3Item[] {
  const items: Ca3Item[] = [];
  for (const e of expenses) {
    const selfAssessed = e.reverseCharge !== '';
    const date = e.nature === 'services' && !selfAssessed ? e.paidAt : e.date;
    if (date === null || date < period.from || date > period.to) continue;
    const bases = vatRowBases(e.amount, e.vat, { selfAssessed });
    const item = (line: Ca3Item['line'], row: VatRow, k: number, basis: string): Ca3Item => ({
      line,
      source: 'expense',
      id: e.id,
      reference: e.reference,
      party: e.supplier,
      date,
      nature: e.nature === 'services' ? 'services' : 'goods',
      basis,
      rate: row.rate,
      base: bases[k] ?? ZERO,
      tax: money(row.amount),
      reverseCharge: e.reverseCharge === '' ? null : e.reverseCharge,
    });
    e.vat.forEach((row, k) => {
      if (row.rate <= 0 || money(row.amount).eq(0)) return;
      const basis = selfAssessed
        ? `Autoliquidée, facture du ${formatDateShort(date)}`
        : e.nature === 'services'
          ? `Payée le ${formatDateShort(date)}`
          : `Facture du ${formatDateShort(date)}`;
      if (selfAssessed) items.push(item(e.reverseCharge === 'goods' ? 'B2' : 'A3', row, k, basis), item(rateLine(row.rate), row, k, basis));
      if (row.deductible) items.push(item(e.nature === 'asset' ? '19' : '20', row, k, basis));
    });
  }
  return items;
}
