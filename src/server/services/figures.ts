import type { Db } from '../db/connection';
import { customerBalances, monthlyTurnover, sumReceivables } from '../db/queries/figures';
import { listDocumentPage } from '../db/queries/document-lists';
import { getAppSettings } from './settings';
import { todayIso } from './document-record';
import { fromStoredUnits } from '../../shared/money';
import { getCustomer } from './customers';

/** Vue d'ensemble: turnover this month and year, receivables, overdue, the latest documents, in the base currency. */
export async function dashboardFigures(db: Db, organizationId: number) {
  const today = todayIso();
  const { currency_format } = await getAppSettings(db, organizationId);
  const currency = currency_format.currency;
  const year = Number(today.slice(0, 4));
  // One pass over the year's documents: the year's and this month's turnover are sums of its months (same filters).
  const [months, receivables, latest] = await Promise.all([
    monthlyTurnover(db, { organizationId, currency, year }),
    sumReceivables(db, { organizationId, currency, today }),
    listDocumentPage(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 6 }),
  ]);
  const yearHt = months.reduce((sum, m) => sum + BigInt(m), 0n); // integer units: exact
  return {
    currency,
    turnover_month: fromStoredUnits(months[Number(today.slice(5, 7)) - 1]),
    turnover_year: fromStoredUnits(yearHt),
    monthly: months.map(fromStoredUnits),
    outstanding: fromStoredUnits(receivables.outstanding),
    open_invoices: receivables.openCount,
    overdue: fromStoredUnits(receivables.overdue),
    overdue_count: receivables.overdueCount,
    latest,
  };
}

/** The customer page's figures: billed, received and outstanding per currency used with this customer. */
export async function customerFigures(db: Db, organizationId: number, customerId: number) {
  await getCustomer(db, organizationId, customerId);
  const rows = await customerBalances(db, { organizationId, customerId });
  return rows.map((r) => ({
    currency: r.currency,
    billed: fromStoredUnits(r.billed),
    paid: fromStoredUnits(r.paid),
    outstanding: fromStoredUnits(r.outstanding),
    documents: r.documents,
  }));
}
