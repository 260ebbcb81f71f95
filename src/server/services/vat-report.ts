import type { Db } from '../db/connection';
import { vatLedgerOwners, vatLedgerSums } from '../db/queries/vat-ledger';
import { vatExpensesOf, vatSalesOf } from '../db/queries/vat-return';
import { INPUT_SCALE, money, unitsToDecimalText } from '../../shared/money';
import type { VatQuery } from '../../shared/schemas/reports';
import { buildCa3, type Ca3Item, type Ca3ItemLine } from '../../shared/vat-return/ca3-lines';
import { purchaseItems } from '../../shared/vat-return/purchases';
import { saleItems, type VatBasis } from '../../shared/vat-return/sales';
import { getOrganizationProfile } from './organization';
import { converter } from './report-currency';
import { refreshVatLedger } from './vat-ledger';
import { itemOut, layOutReturn, toPurchaseExpense, toSaleDocuments } from './vat-return';

/**
 * Above this many movements in the period, the return gives its lines' totals without the operations behind them:
 * listing them would read as many documents as the engine did (a year of a million documents: tens of seconds).
 */
export const VAT_ITEMS_LIMIT = 5000;

/**
 * The VAT return of a period read from the VAT ledger (migration 0069): the sums per line, rate and reverse charge of
 * the days of the period, laid out as the engine's return (vat-return.ts); the operations behind the lines, when
 * there are not too many, from the engine run on the documents and expenses the ledger names for the period.
 */
export async function vatReportFromLedger(db: Db, organizationId: number, query: VatQuery, itemsLimit = VAT_ITEMS_LIMIT) {
  await refreshVatLedger(db, organizationId);
  const period = { organizationId, from: query.from, to: query.to };
  const [{ base, rateOf }, org, sums] = await Promise.all([
    converter(db, organizationId),
    getOrganizationProfile(db, organizationId),
    vatLedgerSums(db, period),
  ]);
  const basis: VatBasis = org.vat_on_debits ? 'debits' : 'receipts';
  const amount = (units: number) => money(unitsToDecimalText(BigInt(units ?? 0), INPUT_SCALE));
  // One stand-in item per sum: the return's totals are sums of its items.
  const totals = sums.map(
    (s): Ca3Item => ({
      line: s.line as Ca3ItemLine,
      source: 'invoice',
      id: 0,
      reference: '',
      party: '',
      date: query.to,
      nature: null,
      basis: '',
      rate: Number(s.rate),
      base: amount(s.base),
      tax: amount(s.tax),
      reverseCharge: s.reverse_charge === 'goods' || s.reverse_charge === 'services' ? s.reverse_charge : null,
    }),
  );
  const report = layOutReturn({ currency: base, basis, items: totals, query });
  const movements = sums.reduce((n, s) => n + Number(s.rows), 0);
  if (movements > itemsLimit) {
    return { ...report, items_omitted: true as const, lines: report.lines.map((l) => ({ ...l, items: [] })) };
  }
  const owners = await vatLedgerOwners(db, period);
  const of = (owner: string) => owners.filter((o) => o.owner === owner).map((o) => o.owner_id);
  const sales = await toSaleDocuments(await vatSalesOf(db, { organizationId, ids: of('sale'), to: query.to }), rateOf);
  const expenses = (await vatExpensesOf(db, { organizationId, ids: of('expense'), currency: base })).map(toPurchaseExpense);
  const listed = buildCa3([...saleItems(sales, { ...query, basis }), ...purchaseItems(expenses, query)]);
  return {
    ...report,
    items_omitted: undefined,
    lines: report.lines.map((l, k) => ({ ...l, items: (listed[k]?.items ?? []).map(itemOut) })),
  };
}
