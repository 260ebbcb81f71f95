import type { Db } from '../db/connection';
import { clock } from '../clock';
import { fail } from '../errors';
import { deductedDepositPages, issuedSalePages, type PaymentRow, paymentPagesOfPeriod, type SaleRows } from '../db/queries/fec';
import { fecFileName } from '../../shared/fec/format';
import { parisDateOf } from '../../shared/paris-date';
import { runHeavy } from '../workers/heavy-work';
import { type Packed, pack, transferOf } from '../workers/packed';
import { getAccountingSettings, getAppSettings } from './settings';
import { getOrganizationProfile } from './organization';
import { listCurrencies } from './currencies';

/**
 * The FEC of a calendar year (LPF art. L47 A, A47 A-1): the sales journal of the invoices and credit notes issued with
 * a date in that year, and the bank journal of the payments dated in it. Named after the SIREN: refused without one.
 */
export async function exportFec(db: Db, organizationId: number, year: number): Promise<{ filename: string; content: string }> {
  const profile = await getOrganizationProfile(db, organizationId);
  const siren = profile.siret.replace(/\D/g, '').slice(0, 9);
  if (siren.length !== 9)
    fail('CONFLICT', 'Renseignez le SIREN ou le SIRET de l’entreprise (Paramètres → Infos de l’entreprise) : le FEC porte son nom');
  const [accounts, settings] = await Promise.all([getAccountingSettings(db, organizationId), getAppSettings(db, organizationId)]);
  const base = settings.currency_format.currency;
  const period = { organizationId, from: `${year}-01-01`, to: `${year}-12-31` };
  // Here only the reads, a page at a time, each packed for the worker thread that builds the book (parsing, entries,
  // text): the event loop serves other requests between pages.
  const source = { sales: [] as Packed<SaleRows>[], deposits: [] as Packed<SaleRows>[], payments: [] as Packed<PaymentRow[]>[] };
  const invoiceIds: number[] = [];
  // Documents issued before rates were kept on them are converted at today's rate: read only when one is found.
  let withoutKeptRate = false;
  const keepsRate = (row: { currency: string; exchange_rate: string | null }) => {
    if (row.currency !== base && row.exchange_rate === null) withoutKeptRate = true;
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
  const currentRates = withoutKeptRate ? Object.fromEntries((await listCurrencies(db, organizationId)).map((c) => [c.code, c.rate])) : {};
  const transfer = transferOf([...source.sales, ...source.deposits, ...source.payments]);
  const content = await runHeavy('fecBook', [{ ...source, accounts, base, currentRates }], transfer);
  return { filename: fecFileName(siren, parisDateOf(clock.now())), content };
}
