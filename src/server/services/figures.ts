import type { Db } from '../db/connection';
import { cashOfPeriod, customerBalances, monthlyTurnover, sumReceivables } from '../db/queries/figures';
import { customerCredits } from '../db/queries/credit-allocations';
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
  const monthStart = `${today.slice(0, 7)}-01`;
  const [months, receivables, latest, cash] = await Promise.all([
    monthlyTurnover(db, { organizationId, currency, year }),
    sumReceivables(db, { organizationId, currency, today }),
    listDocumentPage(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 6 }),
    cashOfPeriod(db, { organizationId, currency, from: monthStart, to: today }),
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
    cash: {
      source: cash.source,
      received_month: fromStoredUnits(cash.received),
      paid_month: fromStoredUnits(cash.paid),
      balance: cash.balance === null ? null : fromStoredUnits(cash.balance),
      balance_date: cash.balanceDate,
    },
    latest,
  };
}

/** The customer page's figures: billed, received, refunded, credit available and outstanding per currency used with this customer. */
export async function customerFigures(db: Db, organizationId: number, customerId: number) {
  await getCustomer(db, organizationId, customerId);
  const [rows, credits] = await Promise.all([
    customerBalances(db, { organizationId, customerId }),
    customerCredits(db, { organizationId, customerId }),
  ]);
  return rows.map((r) => {
    const credit = credits.find((c) => c.currency === r.currency);
    return {
      currency: r.currency,
      billed: fromStoredUnits(r.billed),
      paid: fromStoredUnits(r.paid),
      refunded: fromStoredUnits(credit?.refunded ?? 0),
      credit: fromStoredUnits(credit?.available ?? 0),
      outstanding: fromStoredUnits(r.outstanding),
      documents: r.documents,
    };
  });
}
