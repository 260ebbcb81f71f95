import type { EnAddress, EnAllowanceCharge, EnInvoice, EnLine, EnParty, VatTreatment } from './en16931';
import { amountText, compactDate, decimal4, el, text } from './xml-writer';

/**
 * The EN 16931 model as UN/CEFACT CII D16B, the syntax Factur-X embeds (guideline urn:cen.eu:en16931:2017, the
 * EN 16931 profile). Elements in the XSD's order: the schema refuses any other.
 */

const NAMESPACES = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

const date102 = (name: string, iso: string) => el(name, text('udt:DateTimeString', compactDate(iso), { format: '102' }));

function address(a: EnAddress): string {
  return el('ram:PostalTradeAddress', [
    text('ram:PostcodeCode', a.postalCode),
    text('ram:LineOne', a.line1),
    text('ram:LineTwo', a.line2),
    text('ram:CityName', a.city),
    text('ram:CountryID', a.country),
    text('ram:CountrySubDivisionName', a.subdivision),
  ]);
}

function party(name: string, p: EnParty): string {
  return el(name, [
    text('ram:GlobalID', p.routingId?.id, { schemeID: p.routingId?.scheme }),
    text('ram:Name', p.name),
    p.legalId || p.tradingName
      ? el('ram:SpecifiedLegalOrganization', [
          text('ram:ID', p.legalId?.id, { schemeID: p.legalId?.scheme }),
          text('ram:TradingBusinessName', p.tradingName),
        ])
      : '',
    p.email ? el('ram:DefinedTradeContact', el('ram:EmailURIUniversalCommunication', text('ram:URIID', p.email))) : '',
    address(p.address),
    p.endpoint ? el('ram:URIUniversalCommunication', text('ram:URIID', p.endpoint.id, { schemeID: p.endpoint.scheme })) : '',
    p.vatNumber ? el('ram:SpecifiedTaxRegistration', text('ram:ID', p.vatNumber, { schemeID: 'VA' })) : '',
    p.taxRegistration ? el('ram:SpecifiedTaxRegistration', text('ram:ID', p.taxRegistration, { schemeID: 'FC' })) : '',
  ]);
}

/** A line's or an allowance's VAT: type, category, rate (none for "not subject to VAT"). */
const categoryTax = (name: string, vat: VatTreatment) =>
  el(name, [
    text('ram:TypeCode', 'VAT'),
    text('ram:CategoryCode', vat.category),
    vat.category === 'O' ? '' : text('ram:RateApplicablePercent', decimal4(vat.rate)),
  ]);

function line(l: EnLine, inv: EnInvoice): string {
  const amount = (units: bigint) => amountText(units, inv.precision);
  return el('ram:IncludedSupplyChainTradeLineItem', [
    el('ram:AssociatedDocumentLineDocument', text('ram:LineID', l.id)),
    el('ram:SpecifiedTradeProduct', [
      text('ram:SellerAssignedID', l.sellerId),
      text('ram:Name', l.name),
      text('ram:Description', l.description),
    ]),
    el('ram:SpecifiedLineTradeAgreement', el('ram:NetPriceProductTradePrice', text('ram:ChargeAmount', decimal4(l.price)))),
    el('ram:SpecifiedLineTradeDelivery', text('ram:BilledQuantity', decimal4(l.quantity), { unitCode: l.unitCode })),
    el('ram:SpecifiedLineTradeSettlement', [
      categoryTax('ram:ApplicableTradeTax', l.vat),
      l.allowance !== 0n
        ? el('ram:SpecifiedTradeAllowanceCharge', [
            el('ram:ChargeIndicator', text('udt:Indicator', 'false')),
            text('ram:ActualAmount', amount(l.allowance)),
            text('ram:ReasonCode', '95'),
            text('ram:Reason', 'Remise'),
          ])
        : '',
      el('ram:SpecifiedTradeSettlementLineMonetarySummation', text('ram:LineTotalAmount', amount(l.net))),
    ]),
  ]);
}

function allowanceCharge(a: EnAllowanceCharge, precision: number): string {
  return el('ram:SpecifiedTradeAllowanceCharge', [
    el('ram:ChargeIndicator', text('udt:Indicator', a.charge ? 'true' : 'false')),
    text('ram:ActualAmount', amountText(a.amount, precision)),
    text('ram:ReasonCode', a.reasonCode),
    text('ram:Reason', a.reason),
    categoryTax('ram:CategoryTradeTax', a.vat),
  ]);
}

export function toCii(inv: EnInvoice): string {
  const amount = (units: bigint) => amountText(units, inv.precision);
  const money = (name: string, units: bigint) => text(name, amount(units));
  const t = inv.totals;
  const preceding = inv.preceding.at(-1);
  const settlement = el('ram:ApplicableHeaderTradeSettlement', [
    text('ram:PaymentReference', inv.payment?.reference),
    text('ram:TaxCurrencyCode', inv.taxCurrency?.code),
    text('ram:InvoiceCurrencyCode', inv.currency),
    inv.payment
      ? el('ram:SpecifiedTradeSettlementPaymentMeans', [
          text('ram:TypeCode', '58'),
          el('ram:PayeePartyCreditorFinancialAccount', text('ram:IBANID', inv.payment.iban)),
          inv.payment.bic ? el('ram:PayeeSpecifiedCreditorFinancialInstitution', text('ram:BICID', inv.payment.bic)) : '',
        ])
      : '',
    inv.breakdown.map((b) =>
      el('ram:ApplicableTradeTax', [
        money('ram:CalculatedAmount', b.amount),
        text('ram:TypeCode', 'VAT'),
        text('ram:ExemptionReason', b.vat.exemptionReason),
        money('ram:BasisAmount', b.taxable),
        text('ram:CategoryCode', b.vat.category),
        text('ram:ExemptionReasonCode', b.vat.exemptionCode),
        b.vat.category === 'O' ? '' : text('ram:RateApplicablePercent', decimal4(b.vat.rate)),
      ]),
    ),
    inv.allowancesCharges.map((a) => allowanceCharge(a, inv.precision)),
    inv.paymentTerms || inv.dueDate
      ? el('ram:SpecifiedTradePaymentTerms', [
          text('ram:Description', inv.paymentTerms),
          inv.dueDate ? date102('ram:DueDateDateTime', inv.dueDate) : '',
        ])
      : '',
    el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
      money('ram:LineTotalAmount', t.lines),
      money('ram:ChargeTotalAmount', t.charges),
      money('ram:AllowanceTotalAmount', t.allowances),
      money('ram:TaxBasisTotalAmount', t.taxExclusive),
      text('ram:TaxTotalAmount', amount(t.tax), { currencyID: inv.currency }),
      inv.taxCurrency
        ? text('ram:TaxTotalAmount', amountText(inv.taxCurrency.taxTotal, inv.taxCurrency.precision), { currencyID: inv.taxCurrency.code })
        : '',
      money('ram:GrandTotalAmount', t.taxInclusive),
      t.prepaid !== 0n ? money('ram:TotalPrepaidAmount', t.prepaid) : '',
      money('ram:DuePayableAmount', t.payable),
    ]),
    // CII D16B holds one preceding invoice: the latest one (UBL lists them all).
    preceding
      ? el('ram:InvoiceReferencedDocument', [
          text('ram:IssuerAssignedID', preceding.number),
          el('ram:FormattedIssueDateTime', text('qdt:DateTimeString', compactDate(preceding.date), { format: '102' })),
        ])
      : '',
  ]);
  const delivery = inv.delivery;
  const body = el(
    'rsm:CrossIndustryInvoice',
    [
      el('rsm:ExchangedDocumentContext', [
        el('ram:BusinessProcessSpecifiedDocumentContextParameter', text('ram:ID', inv.billingFrame)),
        el('ram:GuidelineSpecifiedDocumentContextParameter', text('ram:ID', 'urn:cen.eu:en16931:2017')),
      ]),
      el('rsm:ExchangedDocument', [
        text('ram:ID', inv.number),
        text('ram:TypeCode', inv.typeCode),
        date102('ram:IssueDateTime', inv.issueDate),
        inv.notes.map((n) => el('ram:IncludedNote', [text('ram:Content', n.text), text('ram:SubjectCode', n.subject)])),
      ]),
      el('rsm:SupplyChainTradeTransaction', [
        inv.lines.map((l) => line(l, inv)),
        el('ram:ApplicableHeaderTradeAgreement', [
          party('ram:SellerTradeParty', inv.seller),
          party('ram:BuyerTradeParty', inv.buyer),
          inv.purchaseOrder ? el('ram:BuyerOrderReferencedDocument', text('ram:IssuerAssignedID', inv.purchaseOrder)) : '',
        ]),
        // The schema wants the delivery element even when empty: written by hand.
        `<ram:ApplicableHeaderTradeDelivery>${[
          delivery?.address ? el('ram:ShipToTradeParty', [text('ram:Name', delivery.name), address(delivery.address)]) : '',
          delivery?.date ? el('ram:ActualDeliverySupplyChainEvent', date102('ram:OccurrenceDateTime', delivery.date)) : '',
        ].join('')}</ram:ApplicableHeaderTradeDelivery>`,
        settlement,
      ]),
    ],
    NAMESPACES,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}
