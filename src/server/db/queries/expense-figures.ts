import type { Db } from '../connection';
import { add, fromStoredUnits, toNumber, ZERO, type Money } from '../../../shared/money';
import { vatRowBases } from '../../../shared/vat-return/purchases';

/**
 * The figures expenses give the reports, by expense date: per month and currency, the
 * count, TTC, HT, VAT and deductible VAT; and the deductible VAT per rate with its base (the HT the VAT was paid
 * on, from the amounts: vat-return/purchases.ts), in euros only. A supplier's credit note is stored with negative
 * amounts (migration 0033), so the same sums take it off the month and the rate it belongs to.
 */
export async function expenseFigures(db: Db, params: { organizationId: number; from: string; to: string }) {
  const months = await db
    .selectFrom('expenses')
    .select((eb) => [
      eb.fn<string>('substr', ['date', eb.val(1), eb.val(7)]).as('month'),
      'currency',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('amount').as('amount'),
      eb.fn.sum<number>('vat_total').as('vat'),
      eb.fn.sum<number>('deductible_vat').as('deductible_vat'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .groupBy(['month', 'currency'])
    .orderBy('month')
    .orderBy('currency')
    .execute();

  const rows = await db
    .selectFrom('expenses')
    .select(['amount', 'vat'])
    .where('organization_id', '=', params.organizationId)
    .where('currency', '=', 'EUR')
    // A credit note's deductible VAT is negative: it comes off its rate's.
    .where('deductible_vat', '!=', 0)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .execute();
  const byRate = new Map<number, { base: Money; amount: Money }>();
  for (const row of rows) {
    const vat = (JSON.parse(row.vat) as { rate: number; amount: number; deductible: boolean }[]).map((v) => ({
      ...v,
      amount: fromStoredUnits(v.amount),
    }));
    const bases = vatRowBases(fromStoredUnits(row.amount), vat);
    vat.forEach((v, k) => {
      if (!v.deductible || v.rate === 0) return;
      const entry = byRate.get(v.rate) ?? { base: ZERO, amount: ZERO };
      byRate.set(v.rate, { base: add(entry.base, bases[k] ?? ZERO), amount: add(entry.amount, v.amount) });
    });
  }

  return {
    months: months.map((m) => ({
      month: m.month,
      currency: m.currency,
      count: Number(m.count),
      amount: fromStoredUnits(Number(m.amount)),
      net: fromStoredUnits(Number(m.amount) - Number(m.vat)),
      vat: fromStoredUnits(Number(m.vat)),
      deductible_vat: fromStoredUnits(Number(m.deductible_vat)),
    })),
    deductible: [...byRate.entries()]
      .sort(([a], [b]) => b - a)
      .map(([rate, e]) => ({ rate, base: toNumber(e.base, 2), amount: toNumber(e.amount, 2) })),
  };
}
