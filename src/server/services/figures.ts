import type { Db } from '../db/connection';
import { periodRange } from '../../shared/periods';
import { customerBalances, monthlyTurnover, sumReceivables, sumTurnover } from '../db/queries/figures';
import { fromUnits4, listDocuments } from '../db/queries/documents';
import { getAppSettings } from './settings';
import { todayIso } from './document-record';
import { getCustomer } from './customers';

/** Vue d'ensemble: turnover this month and year, receivables, overdue, the latest documents, in the base currency. */
export async function dashboardFigures(db: Db, organizationId: number) {
  const today = todayIso();
  const { currency_format } = await getAppSettings(db, organizationId);
  const currency = currency_format.currency;
  const month = periodRange('this_month', today);
  const year = periodRange('this_year', today);
  const [monthHt, yearHt, months, receivables, latest] = await Promise.all([
    sumTurnover(db, { organizationId, currency, from: month.from!, to: month.to! }),
    sumTurnover(db, { organizationId, currency, from: year.from!, to: year.to! }),
    monthlyTurnover(db, { organizationId, currency, year: Number(today.slice(0, 4)) }),
    sumReceivables(db, { organizationId, currency, today }),
    listDocuments(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 6 }),
  ]);
  return {
    currency,
    turnover_month: fromUnits4(monthHt),
    turnover_year: fromUnits4(yearHt),
    monthly: months.map(fromUnits4),
    outstanding: fromUnits4(receivables.outstanding),
    open_invoices: receivables.openCount,
    overdue: fromUnits4(receivables.overdue),
    overdue_count: receivables.overdueCount,
    latest: latest.data,
  };
}

/** The customer page's figures: billed, received and outstanding per currency used with this customer. */
export async function customerFigures(db: Db, organizationId: number, customerId: number) {
  await getCustomer(db, organizationId, customerId);
  const rows = await customerBalances(db, { organizationId, customerId });
  return rows.map((r) => ({
    currency: r.currency,
    billed: fromUnits4(r.billed),
    paid: fromUnits4(r.paid),
    outstanding: fromUnits4(r.outstanding),
    documents: r.documents,
  }));
}
