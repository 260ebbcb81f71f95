import type { Db } from '../db/connection';
import { clock } from '../clock';
import { fail } from '../errors';
import { listDeductedDeposits, listIssuedSales, listPaymentsOfPeriod } from '../db/queries/fec';
import { currencyPrecision } from '../../shared/currencies';
import { convertAmount } from '../../shared/exchange';
import { INPUT_SCALE, rescale, toUnits4, unitsToDecimalText } from '../../shared/money';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { type Conversion, type FecEntry, paymentEntry, type SaleDocument, saleEntry, sameCurrency } from '../../shared/fec/entries';
import { fecFileName, fecText } from '../../shared/fec/format';
import { parisDateOf } from '../../shared/paris-date';
import { getAccountingSettings, getAppSettings } from './settings';
import { getOrganizationProfile } from './organization';
import { listCurrencies } from './currencies';

const dayOf = (iso: string | null, fallback: string) => (iso ? parisDateOf(iso) : fallback);

/** A customer's auxiliary account: its customer number, kept on the document at issue. */
function customerOf(doc: StoredDocument) {
  return { number: doc.customer?.number || 'DIVERS', name: doc.customer?.name || doc.customer_name || 'Client divers' };
}

function saleDocument(doc: StoredDocument, deposits: StoredDocument[]): SaleDocument {
  const taxes = (d: StoredDocument) => d.totals.taxes.map((t) => ({ rate: t.rate, amount: t.amount }));
  return {
    type: doc.type === 'credit' ? 'credit' : 'invoice',
    deposit: doc.kind === 'deposit',
    number: doc.number ?? '',
    date: doc.date,
    validDate: dayOf(doc.issued_at, doc.date),
    recordedAt: doc.issued_at ?? doc.date,
    customer: customerOf(doc),
    total: doc.totals.total,
    shipping: doc.totals.shipping,
    taxes: taxes(doc),
    lines: doc.items.map((l) => ({ kind: l.kind, net: l.gross_total })),
    deductions: deposits.map((d) => ({ number: d.number ?? '', total: d.totals.total, taxes: taxes(d) })),
  };
}

/**
 * How the amounts of a document reach the accounting currency (the base currency of Paramètres → Devises): the base
 * as is, another at the rate kept when the document was issued (its own amount kept in Montantdevise/Idevise), so an
 * export made after the rate moved books what was booked then. Only a document issued before rates were kept and
 * whose currency is no longer enabled has none: today's rate in Paramètres → Devises is the only one left.
 */
async function conversions(db: Db, organizationId: number, base: string) {
  const precision = currencyPrecision(base);
  let current: Map<string, string> | undefined;
  const currentRate = async (currency: string) => {
    current ??= new Map((await listCurrencies(db, organizationId)).map((c) => [c.code, c.rate]));
    const rate = current.get(currency);
    if (rate === undefined)
      fail('CONFLICT', `Devise ${currency} : aucun taux de change vers ${base}, ajoutez-la dans Paramètres → Devises pour exporter le FEC`);
    return rate;
  };
  return async (doc: { currency: string; exchange_rate: string | null }): Promise<Conversion> => {
    const { currency } = doc;
    if (currency === base) return sameCurrency(precision);
    const rate = doc.exchange_rate ?? (await currentRate(currency));
    const sourcePrecision = currencyPrecision(currency);
    return {
      precision,
      currency,
      sourcePrecision,
      convert: (units) => {
        const converted = convertAmount(unitsToDecimalText(units, sourcePrecision), { code: currency, rate }, { code: base, rate: '1' });
        return rescale(toUnits4(converted), INPUT_SCALE, precision);
      },
    };
  };
}

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
  const conversionOf = await conversions(db, organizationId, base);
  const period = { organizationId, from: `${year}-01-01`, to: `${year}-12-31` };

  const sales = await listIssuedSales(db, period);
  const deposits = await listDeductedDeposits(db, {
    organizationId,
    invoiceIds: sales.filter((d) => d.type === 'invoice').map((d) => d.id),
  });
  // Grouped once by the invoice that deducts them: looked up per invoice, not searched for (a year of invoices × deposits).
  const deductedBy = new Map<number | null, typeof deposits>();
  for (const deposit of deposits) {
    const group = deductedBy.get(deposit.deducted_by_id);
    if (group) group.push(deposit);
    else deductedBy.set(deposit.deducted_by_id, [deposit]);
  }
  const entries: FecEntry[] = [];
  for (const doc of sales) {
    entries.push(saleEntry(saleDocument(doc, deductedBy.get(doc.id) ?? []), accounts, await conversionOf(doc)));
  }
  for (const payment of await listPaymentsOfPeriod(db, period)) {
    const record = {
      invoiceNumber: payment.number,
      date: payment.date,
      validDate: dayOf(payment.created_at, payment.date),
      recordedAt: payment.created_at,
      customer: { number: payment.customer.number || 'DIVERS', name: payment.customer.name || 'Client divers' },
      amount: payment.amount,
      method: payment.method,
    };
    // At the invoice's rate of issue: the payment clears the receivable as it was booked.
    entries.push(paymentEntry(record, accounts, await conversionOf(payment)));
  }
  return { filename: fecFileName(siren, parisDateOf(clock.now())), content: fecText(entries, currencyPrecision(base)) };
}
