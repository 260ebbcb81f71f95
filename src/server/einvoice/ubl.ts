import type { EnAddress, EnInvoice, EnLine, EnParty, VatTreatment } from './en16931';
import { amountText, decimal4, el, text } from './xml-writer';

/** The EN 16931 model as OASIS UBL 2.1 (an Invoice, or a CreditNote), elements in the schema's order. */

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

function address(name: string, a: EnAddress): string {
  return el(name, [
    text('cbc:StreetName', a.line1),
    text('cbc:AdditionalStreetName', a.line2),
    text('cbc:CityName', a.city),
    text('cbc:PostalZone', a.postalCode),
    text('cbc:CountrySubentity', a.subdivision),
    el('cac:Country', text('cbc:IdentificationCode', a.country)),
  ]);
}

const taxScheme = (id: string) => el('cac:TaxScheme', text('cbc:ID', id));

function party(name: string, p: EnParty): string {
  return el(
    name,
    el('cac:Party', [
      text('cbc:EndpointID', p.endpoint?.id, { schemeID: p.endpoint?.scheme }),
      p.routingId ? el('cac:PartyIdentification', text('cbc:ID', p.routingId.id, { schemeID: p.routingId.scheme })) : '',
      p.tradingName ? el('cac:PartyName', text('cbc:Name', p.tradingName)) : '',
      address('cac:PostalAddress', p.address),
      p.vatNumber ? el('cac:PartyTaxScheme', [text('cbc:CompanyID', p.vatNumber), taxScheme('VAT')]) : '',
      p.taxRegistration ? el('cac:PartyTaxScheme', [text('cbc:CompanyID', p.taxRegistration), taxScheme('FC')]) : '',
      el('cac:PartyLegalEntity', [
        text('cbc:RegistrationName', p.name),
        text('cbc:CompanyID', p.legalId?.id, { schemeID: p.legalId?.scheme }),
      ]),
      p.email ? el('cac:Contact', text('cbc:ElectronicMail', p.email)) : '',
    ]),
  );
}

/** A VAT category (ClassifiedTaxCategory on lines, TaxCategory elsewhere), with the exemption when asked. */
const category = (name: string, vat: VatTreatment, exemption = false) =>
  el(name, [
    text('cbc:ID', vat.category),
    vat.category === 'O' ? '' : text('cbc:Percent', decimal4(vat.rate)),
    exemption ? text('cbc:TaxExemptionReasonCode', vat.exemptionCode) : '',
    exemption ? text('cbc:TaxExemptionReason', vat.exemptionReason) : '',
    taxScheme('VAT'),
  ]);

export function toUbl(inv: EnInvoice): string {
  const credit = inv.typeCode === '381';
  const root = credit ? 'CreditNote' : 'Invoice';
  const money = (name: string, units: bigint) => text(name, amountText(units, inv.precision), { currencyID: inv.currency });
  const t = inv.totals;
  const delivery = inv.delivery;

  const line = (l: EnLine) =>
    el(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
      text('cbc:ID', l.id),
      text(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', decimal4(l.quantity), { unitCode: l.unitCode }),
      money('cbc:LineExtensionAmount', l.net),
      l.allowance !== 0n
        ? el('cac:AllowanceCharge', [
            text('cbc:ChargeIndicator', 'false'),
            text('cbc:AllowanceChargeReasonCode', '95'),
            text('cbc:AllowanceChargeReason', 'Remise'),
            money('cbc:Amount', l.allowance),
          ])
        : '',
      el('cac:Item', [
        text('cbc:Description', l.description),
        text('cbc:Name', l.name),
        l.sellerId ? el('cac:SellersItemIdentification', text('cbc:ID', l.sellerId)) : '',
        category('cac:ClassifiedTaxCategory', l.vat),
      ]),
      el('cac:Price', text('cbc:PriceAmount', decimal4(l.price), { currencyID: inv.currency })),
    ]);

  const body = el(
    root,
    [
      text('cbc:CustomizationID', 'urn:cen.eu:en16931:2017'),
      text('cbc:ProfileID', inv.billingFrame),
      text('cbc:ID', inv.number),
      text('cbc:IssueDate', inv.issueDate),
      credit ? '' : text('cbc:DueDate', inv.dueDate),
      text(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', inv.typeCode),
      // EN 16931's UBL binding puts a note's subject code before its text: #PMT#…
      inv.notes.map((n) => text('cbc:Note', n.subject ? `#${n.subject}#${n.text}` : n.text)),
      text('cbc:DocumentCurrencyCode', inv.currency),
      text('cbc:TaxCurrencyCode', inv.taxCurrency?.code),
      inv.purchaseOrder ? el('cac:OrderReference', text('cbc:ID', inv.purchaseOrder)) : '',
      inv.preceding.map((p) =>
        el('cac:BillingReference', el('cac:InvoiceDocumentReference', [text('cbc:ID', p.number), text('cbc:IssueDate', p.date)])),
      ),
      party('cac:AccountingSupplierParty', inv.seller),
      party('cac:AccountingCustomerParty', inv.buyer),
      delivery
        ? el('cac:Delivery', [
            text('cbc:ActualDeliveryDate', delivery.date),
            delivery.address ? el('cac:DeliveryLocation', address('cac:Address', delivery.address)) : '',
            delivery.name && delivery.address ? el('cac:DeliveryParty', el('cac:PartyName', text('cbc:Name', delivery.name))) : '',
          ])
        : '',
      inv.payment
        ? el('cac:PaymentMeans', [
            text('cbc:PaymentMeansCode', '58'),
            text('cbc:PaymentID', inv.payment.reference),
            el('cac:PayeeFinancialAccount', [
              text('cbc:ID', inv.payment.iban),
              inv.payment.bic ? el('cac:FinancialInstitutionBranch', text('cbc:ID', inv.payment.bic)) : '',
            ]),
          ])
        : '',
      inv.paymentTerms ? el('cac:PaymentTerms', text('cbc:Note', inv.paymentTerms)) : '',
      inv.allowancesCharges.map((a) =>
        el('cac:AllowanceCharge', [
          text('cbc:ChargeIndicator', a.charge ? 'true' : 'false'),
          text('cbc:AllowanceChargeReasonCode', a.reasonCode),
          text('cbc:AllowanceChargeReason', a.reason),
          money('cbc:Amount', a.amount),
          category('cac:TaxCategory', a.vat),
        ]),
      ),
      el('cac:TaxTotal', [
        money('cbc:TaxAmount', t.tax),
        inv.breakdown.map((b) =>
          el('cac:TaxSubtotal', [
            money('cbc:TaxableAmount', b.taxable),
            money('cbc:TaxAmount', b.amount),
            category('cac:TaxCategory', b.vat, true),
          ]),
        ),
      ]),
      inv.taxCurrency
        ? el(
            'cac:TaxTotal',
            text('cbc:TaxAmount', amountText(inv.taxCurrency.taxTotal, inv.taxCurrency.precision), { currencyID: inv.taxCurrency.code }),
          )
        : '',
      el('cac:LegalMonetaryTotal', [
        money('cbc:LineExtensionAmount', t.lines),
        money('cbc:TaxExclusiveAmount', t.taxExclusive),
        money('cbc:TaxInclusiveAmount', t.taxInclusive),
        money('cbc:AllowanceTotalAmount', t.allowances),
        money('cbc:ChargeTotalAmount', t.charges),
        t.prepaid !== 0n ? money('cbc:PrepaidAmount', t.prepaid) : '',
        money('cbc:PayableAmount', t.payable),
      ]),
      inv.lines.map(line),
    ],
    {
      xmlns: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`,
      'xmlns:cac': CAC,
      'xmlns:cbc': CBC,
    },
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`;
}
