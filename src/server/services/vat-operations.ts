import type { Db } from '../db/connection';
import { vatLedgerLinePage, vatLedgerLineSums } from '../db/queries/vat-ledger';
import { vatDocumentNames, vatExpenseNames } from '../db/queries/vat-return';
import { fromStoredUnits, INPUT_SCALE, money, toNumber, unitsToDecimalText } from '../../shared/money';
import {
  readVatOperationsCursor,
  type VatOperationsPage,
  type VatOperationsQuery,
  writeVatOperationsCursor,
} from '../../shared/schemas/vat-operations';
import { CA3_LINES } from '../../shared/vat-return/ca3-lines';
import { operationLink } from '../../shared/vat-return/operation-link';
import { getAppSettings } from './settings';
import { refreshVatLedger } from './vat-ledger';

/**
 * A page of the operations behind one line of the VAT return, read from the VAT ledger (migration 0069) through its
 * index by line (0072): the rows of the page, their pieces' numbers and parties, and the line's totals from the per-day
 * sums. Paging through all of them adds up to the line of the return.
 */
export async function vatOperationsPage(db: Db, organizationId: number, query: VatOperationsQuery): Promise<VatOperationsPage> {
  await refreshVatLedger(db, organizationId);
  const period = { organizationId, line: query.line, from: query.from, to: query.to };
  const after = query.after === undefined ? null : readVatOperationsCursor(query.after);
  // One row more than the page says whether another page follows.
  const [settings, sums, rows] = await Promise.all([
    getAppSettings(db, organizationId),
    vatLedgerLineSums(db, period),
    vatLedgerLinePage(db, { ...period, after, limit: query.per_page + 1 }),
  ]);
  const page = rows.slice(0, query.per_page);
  const idsOf = (sources: readonly string[]) => [...new Set(page.filter((r) => sources.includes(r.source)).map((r) => r.item_id))];
  const [documents, expenses] = await Promise.all([
    vatDocumentNames(db, { organizationId, ids: idsOf(['invoice', 'credit']) }),
    vatExpenseNames(db, { organizationId, ids: idsOf(['expense']) }),
  ]);
  const documentOf = new Map(documents.map((d) => [d.id, { reference: d.number ?? '', party: d.customer_name }]));
  const expenseOf = new Map(expenses.map((e) => [e.id, { reference: e.invoice_number || e.label, party: e.supplier }]));
  const data = page.map((r) => {
    const named = (r.source === 'expense' ? expenseOf : documentOf).get(r.item_id) ?? { reference: '', party: '' };
    const operation = { source: r.source, id: r.item_id, ...named };
    return {
      date: r.date,
      ...operation,
      rate: Number(r.rate),
      base: fromStoredUnits(BigInt(r.base)),
      tax: fromStoredUnits(BigInt(r.tax)),
      link: operationLink(operation),
    };
  });
  const last = page.at(-1);
  const definition = CA3_LINES.find((l) => l.code === query.line);
  const columns: string = definition?.columns ?? 'base_and_tax';
  return {
    currency: settings.currency_format.currency,
    line: query.line,
    label: definition?.label ?? '',
    base: columns === 'tax' ? null : cents(sums.base),
    tax: columns === 'base' ? null : cents(sums.tax),
    data,
    next:
      rows.length > query.per_page && last
        ? writeVatOperationsCursor({ date: last.date, source: last.source, id: last.item_id, rate: Number(last.rate) })
        : null,
  };
}

/** A sum of stored units as the return states it: rounded to the cent. */
const cents = (units: number | string | null) => toNumber(money(unitsToDecimalText(BigInt(units ?? 0), INPUT_SCALE)), 2);
