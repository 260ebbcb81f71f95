import type { Db } from '../db/connection';
import { periodRange } from '../../shared/periods';
import { customerBalances, monthlyTurnover, sumReceivables, sumTurnover } from '../db/queries/figures';
import { listDocumentPage } from '../db/queries/document-lists';
import { getAppSettings } from './settings';
import { todayIso } from './document-record';
import { fromStoredUnits } from '../../shared/money';
import { getCustomer } from './customers';
import { defined } from '../../shared/defined';

/** Vue d'ensemble: turnover this month and year, receivables, overdue, the latest documents, in the base currency. */
export async function dashboardFigures(db: Db, organizationId: number) {
  const today = todayIso();
  const { currency_format } = await getAppSettings(db, organizationId);
  const currency = currency_format.currency;
  const month = periodRange('this_month', today);
  const year = periodRange('this_year', today);
  const [monthHt, yearHt, months, receivables, latest] = await Promise.all([
    sumTurnover(db, { organizationId, currency, from: defined(month.from, 'month.from'), to: defined(month.to, 'month.to') }),
    sumTurnover(db, { organizationId, currency, from: defined(year.from, 'year.from'), to: defined(year.to, 'year.to') }),
    monthlyTurnover(db, { organizationId, currency, year: Number(today.slice(0, 4)) }),
    sumReceivables(db, { organizationId, currency, today }),
    listDocumentPage(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 6 }),
  ]);
  return {
    currency,
    turnover_month: fromStoredUnits(monthHt),
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
