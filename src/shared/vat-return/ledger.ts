import { add, sub, ZERO, type Money } from '../money';
import type { Ca3Item, Ca3ItemLine } from './ca3-lines';
import { purchaseItems, type PurchaseExpense } from './purchases';
import { saleItems, type SaleDocument, type VatBasis } from './sales';

/**
 * The VAT of a sale or an expense as movements in time: what the engine (saleItems, purchaseItems) says is due or
 * deductible from the first day up to each date the answer can change, less what it said up to the previous such
 * date. A period's return sums the movements dated in it: the same cumulative differences, rounded the same way, as
 * the engine computes for that period (sales.ts), so that the ledger adds up to the engine's answer to the cent.
 */
export interface VatMovement {
  line: Ca3ItemLine;
  source: Ca3Item['source'];
  /** The document (the invoice or one of its credit notes) or the expense. */
  id: number;
  date: string;
  nature: 'goods' | 'services' | null;
  rate: number;
  reverseCharge: 'goods' | 'services' | null;
  base: Money;
  tax: Money;
}

const FIRST_DAY = '0000-01-01';
const LAST_DAY = '9999-12-31';

const keyOf = (i: Ca3Item) => `${i.line} ${i.source} ${i.id} ${i.nature ?? ''} ${i.rate} ${i.reverseCharge ?? ''}`;

/**
 * The movements of one sale: `owner` (an invoice, with its credit notes and the deposits it deducts among `family`, or
 * a credit note on no invoice) and its credit notes. The answer can change only on a date of the family's documents
 * or of the owner's payments; a document counts from its own date on, as the period's reading takes the documents
 * dated up to its end.
 */
export function saleMovements(owner: SaleDocument, family: readonly SaleDocument[], basis: VatBasis): VatMovement[] {
  const credits = new Set(family.filter((d) => d.type === 'credit' && d.correctsId === owner.id).map((d) => d.id));
  const owned = (i: Ca3Item) => (i.source === 'credit' ? credits.has(i.id) || i.id === owner.id : i.id === owner.id);
  const dates = [...new Set([...family.map((d) => d.date), ...owner.payments.map((p) => p.date)])].sort();
  const movements: VatMovement[] = [];
  let before = new Map<string, Ca3Item>();
  for (const date of dates) {
    const known = family.filter((d) => d.date <= date);
    const now = new Map<string, Ca3Item>();
    for (const i of saleItems(known, { from: FIRST_DAY, to: date, basis }).filter(owned)) {
      const e = now.get(keyOf(i));
      now.set(keyOf(i), e ? { ...e, base: add(e.base, i.base), tax: add(e.tax, i.tax) } : i);
    }
    for (const key of new Set([...before.keys(), ...now.keys()])) {
      const [was, is] = [before.get(key), now.get(key)];
      const item = (is ?? was) as Ca3Item;
      const base = sub(is?.base ?? ZERO, was?.base ?? ZERO);
      const tax = sub(is?.tax ?? ZERO, was?.tax ?? ZERO);
      if (base.eq(0) && tax.eq(0)) continue;
      movements.push({ ...pick(item), date, base, tax });
    }
    before = now;
  }
  return movements;
}

/** The movements of one expense: its VAT is deducted (or self-assessed) once, on the day the engine says. */
export function expenseMovements(expense: PurchaseExpense): VatMovement[] {
  return purchaseItems([expense], { from: FIRST_DAY, to: LAST_DAY }).map((i) => ({ ...pick(i), date: i.date, base: i.base, tax: i.tax }));
}

const pick = (i: Ca3Item) => ({
  line: i.line,
  source: i.source,
  id: i.id,
  nature: i.nature,
  rate: i.rate,
  reverseCharge: i.reverseCharge,
});
