import { add, allocate, div, money, sub, ZERO, type Money, type MoneyInput } from '../money';
import { formatDateShort } from '../format';
import type { Ca3Item } from './ca3-lines';

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
export function vatRowBases(amount: MoneyInput, rows: readonly VatRow[]): Money[] {
  const taxed = rows.map((r) => r.rate > 0 && !money(r.amount).eq(0));
  const net = sub(
    amount,
    rows.reduce<Money>((s, r) => add(s, r.amount), ZERO),
  );
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
  /** TTC in the base currency, negative on a supplier's credit note, as the VAT rows. */
  amount: MoneyInput;
  vat: readonly VatRow[];
}

/** The items of lines 19 and 20 of the period: each expense's deductible VAT per rate, with its base. */
export function deductibleItems(expenses: readonly PurchaseExpense[], period: { from: string; to: string }): Ca3Item[] {
  const items: Ca3Item[] = [];
  for (const e of expenses) {
    const date = e.nature === 'services' ? e.paidAt : e.date;
    if (date === null || date < period.from || date > period.to) continue;
    const bases = vatRowBases(e.amount, e.vat);
    e.vat.forEach((row, k) => {
      if (!row.deductible || row.rate <= 0 || money(row.amount).eq(0)) return;
      items.push({
        line: e.nature === 'asset' ? '19' : '20',
        source: 'expense',
        id: e.id,
        reference: e.reference,
        party: e.supplier,
        date,
        nature: e.nature === 'services' ? 'services' : 'goods',
        basis: e.nature === 'services' ? `Payée le ${formatDateShort(date)}` : `Facture du ${formatDateShort(date)}`,
        rate: row.rate,
        base: bases[k] ?? ZERO,
        tax: money(row.amount),
      });
    });
  }
  return items;
}
