import { toDecimalString } from '../../shared/money';
import type { DailyTransactions } from '../../shared/ereporting';
import type { InternationalInvoice } from '../../shared/ereporting-international';
import type { InternationalPurchase } from '../../shared/ereporting-purchases';
import type { RateAmount, ServicePayments } from '../../shared/ereporting-payments';
import { dateTime204 } from './cdar';
import { compactDate, el, text } from './xml-writer';

/**
 * What one file reports (the PPF takes one report per file, G6.29): the B2C sales of 10.3 aggregated per day, the
 * international B2B invoices of 10.1 one by one — sales, or purchases where the organisation is the buyer (the
 * declarant's role is the file's, G7.52, so they are a file of their own) — all transactions reports, or the payments
 * of services of 10.2 and 10.4 (a payments report).
 */
export type Flux10Content =
  | { kind: 'transactions'; days: readonly DailyTransactions[] }
  | { kind: 'international'; invoices: readonly InternationalInvoice[]; seller: { siren: string; vatNumber: string } }
  | { kind: 'purchases'; purchases: readonly InternationalPurchase[]; buyer: { siren: string; vatNumber: string } }
  | { kind: 'payments'; payments: ServicePayments };

/**
 * The PPF's e-reporting file (Flux 10, schema `ereporting.xsd`): a report document (who sends it, for whom, when,
 * initial or corrected) and one report of the period. Elements are unqualified, as the schema declares them. The
 * platform is the sender (scheme 0238, its four-character matricule, role WK); the organisation is the declarant
 * (scheme 0002, its SIREN, role SE as the seller, BY as the buyer of its international purchases).
 */
export interface Flux10Report {
  /** The transmission's id: at most 50 characters, no spaces (G1.104). */
  id: string;
  name: string;
  at: Date;
  /** IN an initial report, RE a corrected one replacing it (G8.01). */
  typeCode: 'IN' | 'RE';
  platform: { matricule: string; name: string };
  declarant: { siren: string; name: string };
  period: { from: string; to: string };
  content: Flux10Content;
}

const amount = (value: Parameters<typeof toDecimalString>[0]) => toDecimalString(value, 2);
/** Rates as the PPF's list spells them (20, 5.5, 2.1): no trailing zeros. */
const rate = (value: number) => toDecimalString(value);

function transactionsXml(day: DailyTransactions): string {
  return el('Transactions', [
    text('Date', compactDate(day.date)),
    text('TransactionsCurrency', 'EUR'),
    text('CategoryCode', day.category),
    text('TaxExclusiveAmount', amount(day.base)),
    text('TaxTotal', amount(day.tax)),
    text('TransactionsCount', String(day.count)),
    day.subtotals.map((s) =>
      el('TaxSubtotal', [text('TaxPercent', rate(s.rate)), text('TaxableAmount', amount(s.base)), text('TaxTotal', amount(s.tax))]),
    ),
  ]);
}

const compactOrNull = (date: string | null) => (date ? compactDate(date) : null);

type Party = { scheme: string; id: string; vatNumber: string | null; country: string | null };
/** The organisation as a party of a 10.1 invoice: its SIREN and VAT number, established in France. */
const ownParty = (own: { siren: string; vatNumber: string }): Party => ({
  scheme: '0002',
  id: own.siren,
  vatNumber: own.vatNumber,
  country: 'FR',
});

const partyXml = (name: 'Seller' | 'Buyer', party: Party) =>
  el(name, [
    text('CompanyId', party.id, { schemeId: party.scheme }),
    text('TaxRegistrationId', party.vatNumber, { qualifyingId: 'VAT' }),
    el('PostalAddress', text('CountryId', party.country)),
  ]);

/** One international B2B invoice (10.1), sold or bought, in euros: the amounts the VAT return declares. */
function invoiceXml(invoice: InternationalInvoice | InternationalPurchase, seller: Party, buyer: Party): string {
  return el('Invoice', [
    text('ID', invoice.number),
    text('IssueDate', compactDate(invoice.date)),
    text('TypeCode', invoice.typeCode),
    text('CurrencyCode', 'EUR'),
    el('BusinessProcess', [text('ID', invoice.process), text('TypeID', 'urn.cpro.gouv.fr:1p0:ereporting')]),
    invoice.referenced &&
      el('ReferencedDocument', [text('ID', invoice.referenced.number), text('IssueDate', compactOrNull(invoice.referenced.date))]),
    partyXml('Seller', seller),
    partyXml('Buyer', buyer),
    el('MonetaryTotal', [
      text('TaxExclusiveAmount', amount(invoice.base)),
      text('TaxAmount', amount(invoice.tax), { CurrencyCode: 'EUR' }),
    ]),
    invoice.subtotals.map((s) =>
      el('TaxSubTotal', [
        text('TaxableAmount', amount(s.base)),
        text('TaxAmount', amount(s.tax)),
        el('TaxCategory', [text('Code', s.category), text('Percent', rate(s.rate))]),
      ]),
    ),
  ]);
}

function invoicesXml(content: Extract<Flux10Content, { kind: 'international' | 'purchases' }>): string[] {
  if (content.kind === 'international') return content.invoices.map((i) => invoiceXml(i, ownParty(content.seller), i.buyer));
  return content.purchases.map((p) => invoiceXml(p, p.supplier, ownParty(content.buyer)));
}

const subTotalsXml = (subtotals: readonly RateAmount[]) =>
  subtotals.map((s) => el('SubTotals', [text('TaxPercent', rate(s.rate)), text('CurrencyCode', 'EUR'), text('Amount', amount(s.amount))]));

/** 10.2: each payment of an invoice is one entry (the schema gives an invoice one payment); 10.4: one per day. */
function paymentsXml(payments: ServicePayments): string[] {
  return [
    ...payments.invoices.flatMap((invoice) =>
      invoice.payments.map((p) =>
        el('Invoice', [
          text('InvoiceID', invoice.number),
          text('IssueDate', compactDate(invoice.date)),
          el('Payment', [text('Date', compactDate(p.date)), subTotalsXml(p.subtotals)]),
        ]),
      ),
    ),
    ...payments.days.map((day) => el('Transactions', el('Payment', [text('Date', compactDate(day.date)), subTotalsXml(day.subtotals)]))),
  ];
}

/** The report's body: what changes when the sales or payments change (the header carries the time of writing). */
export function flux10Body(xml: string): string {
  return /<(TransactionsReport|PaymentsReport)>[\s\S]*<\/\1>/.exec(xml)?.[0] ?? '';
}

export function writeFlux10(report: Flux10Report): string {
  const document = el('ReportDocument', [
    text('Id', report.id),
    text('Name', report.name),
    el('IssueDateTime', text('DateTimeString', dateTime204(report.at))),
    text('TypeCode', report.typeCode),
    el('Sender', [text('Id', report.platform.matricule, { schemeId: '0238' }), text('Name', report.platform.name), text('RoleCode', 'WK')]),
    el('Issuer', [
      text('Id', report.declarant.siren, { schemeId: '0002' }),
      text('Name', report.declarant.name),
      text('RoleCode', report.content.kind === 'purchases' ? 'BY' : 'SE'),
    ]),
  ]);
  // A period without any sale or payment is still reported (a nil report): the period alone.
  const period = el('ReportPeriod', [text('StartDate', compactDate(report.period.from)), text('EndDate', compactDate(report.period.to))]);
  const { content } = report;
  const body =
    content.kind === 'payments'
      ? el('PaymentsReport', [period, paymentsXml(content.payments)])
      : el('TransactionsReport', [period, content.kind === 'transactions' ? content.days.map(transactionsXml) : invoicesXml(content)]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${el('Report', [document, body])}\n`;
}
