import type { Db } from '../db/connection';
import { fail } from '../errors';
import {
  bankAccountsOf,
  type BankLineRows,
  bankLinePages,
  deductedDepositPages,
  type ExpenseRow,
  expensePagesOfPeriod,
  handPaidExpensePages,
  issuedSalePages,
  paidExpensePages,
  type PaymentRow,
  paymentPagesOfPeriod,
  type SaleRows,
} from '../db/queries/fec';
import { fecFileName } from '../../shared/fec/format';
import { fiscalYearClosingIn } from '../../shared/fec/fiscal-year';
import { runHeavy } from '../workers/heavy-work';
import { type Packed, pack, transferOf } from '../workers/packed';
import { getAccountingSettings, getAppSettings } from './settings';
import { getOrganizationProfile } from './organization';
import { listCurrencies } from './currencies';
import { converter } from './report-currency';
import { saleDocuments } from './vat-return';

/**
 * The FEC of the fiscal year closing in `year` (LPF art. L47 A, A47 A-1): every journal of that year — sales, purchases,
 * bank, miscellaneous. Named after the SIREN and the closing date: refused without a SIREN.
 */
export async function exportFec(db: Db, organizationId: number, year: number): Promise<{ filename: string; content: string }> {
  const profile = await getOrganizationProfile(db, organizationId);
  const siren = profile.siret.replace(/\D/g, '').slice(0, 9);
  if (siren.length !== 9)
    fail('CONFLICT', 'Renseignez le SIREN ou le SIRET de l’entreprise (Paramètres → Infos de l’entreprise) : le FEC porte son nom');
  const [accounts, settings] = await Promise.all([getAccountingSettings(db, organizationId), getAppSettings(db, organizationId)]);
  const base = settings.currency_format.currency;
  const fiscalYear = fiscalYearClosingIn(accounts.first_closing_date, year);
  if ('error' in fiscalYear) return fail('CONFLICT', fiscalYear.error);
  const period = { organizationId, ...fiscalYear };
  // Here only the reads, a page at a time, each packed for the worker thread that builds the book (parsing, entries,
  // text): the event loop serves other requests between pages.
  const source = {
    sales: [] as Packed<SaleRows>[],
    deposits: [] as Packed<SaleRows>[],
    payments: [] as Packed<PaymentRow[]>[],
    expenses: [] as Packed<ExpenseRow[]>[],
    handPaidExpenses: [] as Packed<ExpenseRow[]>[],
    paidExpenses: [] as Packed<ExpenseRow[]>[],
    bankLines: [] as Packed<BankLineRows>[],
  };
  const invoiceIds: number[] = [];
  // Documents issued before rates were kept on them are converted at today's rate: read only when one is found.
  let withoutKeptRate = false;
  const keepsRate = (row: { currency: string; exchange_rate?: string | null }) => {
    if (row.currency !== base && !row.exchange_rate) withoutKeptRate = true;
  };
  for await (const page of issuedSalePages(db, period)) {
    for (const row of page.documents) {
      if (row.type === 'invoice') invoiceIds.push(row.id);
      keepsRate(row);
    }
    source.sales.push(pack(page));
  }
  for await (const page of deductedDepositPages(db, { organizationId, invoiceIds })) source.deposits.push(pack(page));
  for await (const page of paymentPagesOfPeriod(db, period)) {
    for (const row of page) keepsRate(row);
    source.payments.push(pack(page));
  }
  // Expenses keep no rate of their own: one in another currency is converted at today's rate.
  for await (const page of expensePagesOfPeriod(db, period)) {
    for (const row of page) keepsRate(row);
    source.expenses.push(pack(page));
  }
  for await (const page of handPaidExpensePages(db, period)) {
    for (const row of page) keepsRate(row);
    source.handPaidExpenses.push(pack(page));
  }
  for await (const page of paidExpensePages(db, period)) {
    for (const row of page) keepsRate(row);
    source.paidExpenses.push(pack(page));
  }
  for await (const page of bankLinePages(db, period)) {
    for (const row of page.lines) keepsRate(row);
    source.bankLines.push(pack(page));
  }
  // The sales as the VAT return reads them (payments, credit notes, deposits, in the base currency): the VAT on
  // receipts the books hold and move out of waiting is computed by the return's own rules.
  const { rateOf } = await converter(db, organizationId);
  const vatSales = await saleDocuments(db, organizationId, { from: fiscalYear.from ?? '0001-01-01', to: fiscalYear.to }, rateOf);
  const receipts = { sales: vatSales, basis: profile.vat_on_debits ? ('debits' as const) : ('receipts' as const), ...fiscalYear };
  const bankAccounts = await bankAccountsOf(db, organizationId);
  const currentRates = withoutKeptRate ? Object.fromEntries((await listCurrencies(db, organizationId)).map((c) => [c.code, c.rate])) : {};
  const transfer = transferOf([
    ...source.sales,
    ...source.deposits,
    ...source.payments,
    ...source.expenses,
    ...source.handPaidExpenses,
    ...source.paidExpenses,
    ...source.bankLines,
  ]);
  const content = await runHeavy('fecBook', [{ ...source, receipts, bankAccounts, accounts, base, currentRates }], transfer);
  return { filename: fecFileName(siren, fiscalYear.to), content };
}
