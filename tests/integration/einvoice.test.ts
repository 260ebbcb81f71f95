import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, draft, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { validationSummary } from '../../src/server/einvoice/validate';
import { validateFrenchEinvoice } from '../../src/server/einvoice/french-cius';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Converted documents (credit notes, deposits, final invoices) are dated the day they are made: every document is.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

async function einvoice(session: Session, id: number, format: string) {
  const response = await session.fetch(`${session.baseUrl}/api/documents/${id}/einvoice?format=${format}`);
  return { response, text: await response.text() };
}

const timings: { name: string; format: string; generate: number; validate: number }[] = [];

/**
 * Both syntaxes of an issued document: answered as XML, and valid under EN 16931, the French CIUS (BR-FR-Flux2) and,
 * for the CII, Factur-X 1.09: no fatal assert, the warnings printed.
 */
async function expectValid(session: Session, name: string, id: number) {
  const xmls: Record<string, string> = {};
  for (const format of ['cii', 'ubl'] as const) {
    const started = performance.now();
    const { response, text } = await einvoice(session, id, format);
    const generated = performance.now();
    expect(response.status, text).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    // The CII is also what the Factur-X PDF embeds: its own schema and schematron (1.09, EN 16931 profile) apply.
    const result = await validateFrenchEinvoice(text, format, { facturx: format === 'cii' });
    const validated = performance.now();
    timings.push({ name, format, generate: generated - started, validate: validated - generated });
    const fatal = result.asserts.filter((a) => a.flag === 'fatal');
    expect(
      { ok: result.ok, summary: validationSummary(result), fatal: fatal.map((a) => `${a.rule} ${a.message}`) },
      `${name} ${format}\n${text}`,
    ).toEqual({ ok: true, summary: expect.any(String), fatal: [] });
    const warnings = result.asserts.filter((a) => a.flag === 'warning');
    console.info(`${name} ${format}: ${warnings.length} warning(s) ${warnings.map((w) => w.rule).join(' ')}`);
    xmls[format] = text;
  }
  return xmls as { cii: string; ubl: string };
}

async function customer(session: Session, body: Record<string, unknown>): Promise<number> {
  const answer = await session.rest('POST', '/api/customers', body);
  if (answer.status !== 201) throw new Error(`customer: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

describe('GET /api/documents/{id}/einvoice: the test matrix passes the EN 16931 rules in CII and UBL', () => {
  it('mixed rates, line and document discounts, shipping at 20 %, purchase order, delivery address, IBAN', async () => {
    const { session } = await registered(server.url);
    await session.rest('PUT', '/api/organization', {
      ...sellerIdentity,
      additional_info: [
        { key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 189' },
        { key: 'BIC', value: 'AGRIFRPP' },
      ],
    });
    const customerId = await customer(session, businessCustomer);
    const doc = await issued(session, {
      customer_id: customerId,
      date: today,
      purchase_order: 'BC-2026-17',
      delivery_address: { line1: '8 rue du Four', postal_code: '69003', city: 'Lyon', country: 'France' },
      items: [
        line('Pose', 2, 450, 20, { discount_type: 'percent', discount_value: 10 }),
        line('Fournitures', 3, 49.99, 5.5, { kind: 'goods', unit: 'kg' }),
        line('Conseil', 1.5, 80, 10, { discount_type: 'amount', discount_value: 12.5, unit: 'h' }),
      ],
      shipping: 25,
      shipping_tax: { title: 'TVA 20 %', rate: 20 },
      discount_type: 'percent',
      discount_value: 7,
    });
    const { cii, ubl } = await expectValid(session, 'mixed', doc.id);
    expect(cii).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(cii).toContain('<ram:ID schemeID="0002">552032534</ram:ID>');
    expect(cii).toContain('<ram:ID schemeID="0002">732829320</ram:ID>');
    expect(cii).toContain('<ram:IBANID>FR7630006000011234567890189</ram:IBANID>');
    expect(cii).toContain('<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>BC-2026-17</ram:IssuerAssignedID>');
    expect(cii).toContain('<ram:ShipToTradeParty>');
    expect(cii).toContain('<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>M1</ram:ID>');
    expect(ubl).toContain('<cbc:ProfileID>M1</cbc:ProfileID>');
    expect(cii).toContain('<ram:IncludedNote><ram:Content>B2B</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode>');
    // BT-34 / BT-49: both parties' SIREN under the directory's scheme, their e-mails as contacts.
    expect(cii).toContain('<ram:URIID schemeID="0225">552032534</ram:URIID>');
    expect(cii).toContain('<ram:URIID schemeID="0225">732829320</ram:URIID>');
    expect(ubl).toContain('<cbc:EndpointID schemeID="0225">732829320</cbc:EndpointID>');
    expect(cii).toMatch(/<ram:Content>En cas de retard de paiement, pénalités[^<]*<\/ram:Content><ram:SubjectCode>PMD<\/ram:SubjectCode>/);
    expect(cii).toMatch(/<ram:Content>Indemnité forfaitaire[^<]*<\/ram:Content><ram:SubjectCode>PMT<\/ram:SubjectCode>/);
    expect(cii).toMatch(/<ram:SubjectCode>PMT<\/ram:SubjectCode>/);
    expect(cii).toMatch(/<ram:SubjectCode>PMD<\/ram:SubjectCode>/);
    expect(cii).toMatch(/<ram:SubjectCode>AAB<\/ram:SubjectCode>/);
    // The stored totals, as stored: the grand total and the VAT of each rate.
    expect(cii).toContain(`<ram:GrandTotalAmount>${doc.total.toFixed(2)}</ram:GrandTotalAmount>`);
    for (const t of doc.taxes) expect(cii).toContain(`<ram:CalculatedAmount>${t.amount.toFixed(2)}</ram:CalculatedAmount>`);
    expect(ubl).toContain(
      '<cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode>',
    );
    expect(ubl).toContain('<cbc:Note>#PMD#En cas de retard');
  });

  it('a deposit invoice (386), its final invoice deducting it as prepaid (BT-113), and a credit note (381, BT-25)', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, {
      type: 'estimate',
      customer_id: customerId,
      date: today,
      items: [line('Cuisine', 1, 1000, 20, { kind: 'goods' }), line('Pose', 1, 400, 10)],
    });
    const deposit = (await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 })).body.data;
    const issuedDeposit = (await session.rest('POST', `/api/documents/${deposit.id}/issue`)).body.data;
    const { cii: depositXml } = await expectValid(session, 'deposit', issuedDeposit.id);
    expect(depositXml).toContain('<ram:TypeCode>386</ram:TypeCode>');
    // A deposit invoice is never framed as a final one (BR-FR-CO-08).
    expect(depositXml).toContain('<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>M1</ram:ID>');

    const final = (await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    const issuedFinal = (await session.rest('POST', `/api/documents/${final.id}/issue`)).body.data;
    expect(issuedFinal.deposits).toBe(issuedDeposit.total);
    const { cii: finalXml, ubl: finalUbl } = await expectValid(session, 'final', issuedFinal.id);
    expect(finalXml).toContain(`<ram:TotalPrepaidAmount>${issuedDeposit.total.toFixed(2)}</ram:TotalPrepaidAmount>`);
    expect(finalXml).toContain(`<ram:DuePayableAmount>${(issuedFinal.total - issuedDeposit.total).toFixed(2)}</ram:DuePayableAmount>`);
    // The final invoice's VAT is the whole sale's; the deposit's own VAT is not taken off it a second time.
    expect(finalXml).toContain(`<ram:TaxTotalAmount currencyID="EUR">${issuedFinal.tax.toFixed(2)}</ram:TaxTotalAmount>`);
    expect(finalXml).toContain(`Acomptes déduits : facture n° ${issuedDeposit.number}`);
    expect(finalUbl).toContain(`<cbc:PrepaidAmount currencyID="EUR">${issuedDeposit.total.toFixed(2)}</cbc:PrepaidAmount>`);
    // A final invoice after deposits: frame M4, and its deposit invoice as the preceding invoice (BG-3).
    expect(finalXml).toContain('<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>M4</ram:ID>');
    expect(finalXml).toContain(`<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${issuedDeposit.number}</ram:IssuerAssignedID>`);
    expect(finalUbl).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${issuedDeposit.number}</cbc:ID>`);

    const invoice = await issued(session, { customer_id: customerId, date: today, items: [line('Audit', 1, 600, 20)] });
    const credit = (await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    const issuedCredit = (await session.rest('POST', `/api/documents/${credit.id}/issue`)).body.data;
    const { cii, ubl } = await expectValid(session, 'credit', issuedCredit.id);
    expect(cii).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(cii).toContain(`<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${invoice.number}</ram:IssuerAssignedID>`);
    expect(ubl).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(ubl).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${invoice.number}</cbc:ID>`);
    // A credit note prints no late-payment terms: the notes the French CIUS wants say why (BR-FR-05).
    for (const subject of ['PMD', 'PMT', 'AAB'])
      expect(cii).toContain(`sans objet pour un avoir</ram:Content><ram:SubjectCode>${subject}<`);
  });

  it('a consumer in France and one abroad (B2C): the e-mail as electronic address, the indemnity note explained', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const local = await customer(session, {
      type: 'individual',
      name: 'Camille Martin',
      email: 'camille@example.fr',
      address: { line1: '3 rue des Lilas', postal_code: '75011', city: 'Paris', country: 'France' },
    });
    const doc = await issued(session, { customer_id: local, date: today, items: [line('Cours de yoga', 10, 25, 20)] });
    const { cii, ubl } = await expectValid(session, 'b2c', doc.id);
    expect(cii).toContain('<ram:Content>B2C</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode>');
    expect(cii).toContain('<ram:URIID schemeID="EM">camille@example.fr</ram:URIID>');
    expect(ubl).toContain('<cbc:EndpointID schemeID="EM">camille@example.fr</cbc:EndpointID>');
    expect(cii).toContain('le client n’est pas un professionnel (C. com. D441-5)</ram:Content><ram:SubjectCode>PMT<');
    expect(cii).toContain('<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>S1</ram:ID>');

    const abroad = await customer(session, {
      type: 'individual',
      name: 'Lukas Weber',
      email: 'lukas@example.de',
      address: { line1: 'Lindenstraße 2', postal_code: '10969', city: 'Berlin', country: 'Allemagne' },
    });
    const goods = await issued(session, { customer_id: abroad, date: today, items: [line('Lampe', 1, 120, 20, { kind: 'goods' })] });
    const { cii: international } = await expectValid(session, 'b2c abroad', goods.id);
    expect(international).toContain('<ram:Content>B2C</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode>');
    expect(international).toContain('<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>B1</ram:ID>');
  });

  it('a franchise 293 B organisation without VAT number: category E, VATEX-FR-FRANCHISE, the SIREN as tax registration', async () => {
    const { session } = await registered(server.url);
    const { vat_number: _vat, legal_form: _form, capital: _capital, ...rest } = sellerIdentity;
    await session.rest('PUT', '/api/organization', { ...rest, legal_form: 'EI', vat_regime: 'franchise' });
    const customerId = await customer(session, {
      ...businessCustomer,
      type: 'individual',
      business_id: '',
      email: 'boulangerie@example.fr',
    });
    const doc = await issued(session, {
      customer_id: customerId,
      date: today,
      items: [{ item: 'Cours de piano', quantity: 4, unit_price: 35, unit: 'h', taxes: [] }],
      shipping: 10,
    });
    const { cii, ubl } = await expectValid(session, 'franchise', doc.id);
    expect(cii).toContain('<ram:ExemptionReasonCode>VATEX-FR-FRANCHISE</ram:ExemptionReasonCode>');
    expect(cii).toContain('<ram:ExemptionReason>TVA non applicable, art. 293 B du CGI</ram:ExemptionReason>');
    expect(cii).toContain('<ram:ID schemeID="FC">552032534</ram:ID>');
    expect(ubl).toContain('<cbc:TaxExemptionReasonCode>VATEX-FR-FRANCHISE</cbc:TaxExemptionReasonCode>');
  });

  it('cross-border: reverse charge on services to an EU business (AE), intra-EU goods (K), export outside the EU (G)', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const german = await customer(session, {
      name: 'Müller & Söhne GmbH',
      vat_number: 'DE123456789',
      address: { line1: 'Hauptstraße 5', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
    });
    const services = await issued(session, {
      customer_id: german,
      date: today,
      items: [{ item: 'Développement <API> & "tests"', quantity: 10, unit_price: 650, unit: 'j', taxes: [] }],
    });
    const { cii: ae } = await expectValid(session, 'reverse charge', services.id);
    expect(ae).toContain('<ram:CategoryCode>AE</ram:CategoryCode>');
    // Neither SIREN nor e-mail: the buyer is reached by its VAT number, under the German VAT scheme of the EAS list.
    expect(ae).toContain('<ram:URIID schemeID="9930">DE123456789</ram:URIID>');
    expect(ae).toContain('<ram:Content>B2BINT</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode>');
    expect(ae).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>');
    expect(ae).toContain('Développement &lt;API&gt; &amp; &quot;tests&quot;');

    const goods = await issued(session, {
      customer_id: german,
      date: today,
      items: [{ item: 'Fauteuil', quantity: 2, unit_price: 890, kind: 'goods', taxes: [] }],
      shipping: 60,
      shipping_tax: null,
    });
    const { cii: k } = await expectValid(session, 'intra-EU goods', goods.id);
    expect(k).toContain('<ram:CategoryCode>K</ram:CategoryCode>');
    expect(k).toContain('<ram:CountryID>DE</ram:CountryID>');

    const swiss = await customer(session, {
      name: 'Horlogerie Favre SA',
      email: 'compta@favre.example.ch',
      address: { line1: 'Rue du Rhône 40', postal_code: '1204', city: 'Genève', country: 'Suisse' },
    });
    const exported = await issued(session, {
      customer_id: swiss,
      date: today,
      vat_exemption: '',
      items: [{ item: 'Pendule', quantity: 1, unit_price: 2400, kind: 'goods', taxes: [] }],
    });
    const { cii: g, ubl } = await expectValid(session, 'export', exported.id);
    expect(g).toContain('<ram:CategoryCode>G</ram:CategoryCode>');
    expect(ubl).toContain('<cbc:IdentificationCode>CH</cbc:IdentificationCode>');
  });

  it('prices typed including tax (TTC) with a document discount: line nets are the stored HT amounts', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await issued(session, {
      customer_id: customerId,
      date: today,
      price_mode: 'ttc',
      items: [line('Formation', 3, 99.99, 20), line('Livre', 7, 12.35, 5.5, { kind: 'goods' }), line('Repas', 2, 17.9, 10)],
      discount_type: 'amount',
      discount_value: 13.33,
      shipping: 9.9,
    });
    const { cii } = await expectValid(session, 'ttc', doc.id);
    for (const item of doc.items) expect(cii).toContain(`<ram:LineTotalAmount>${item.gross_total.toFixed(2)}</ram:LineTotalAmount>`);
    expect(cii).toContain(`<ram:GrandTotalAmount>${doc.total.toFixed(2)}</ram:GrandTotalAmount>`);
  });

  it('a USD invoice: amounts in USD, the VAT total also in EUR (BT-6, BT-111)', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    expect((await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' })).status).toBe(201);
    const customerId = await customer(session, { ...businessCustomer, currency: 'USD' });
    const doc = await issued(session, { customer_id: customerId, currency: 'USD', date: today, items: [line('Design', 3, 333.33, 20)] });
    const { cii, ubl } = await expectValid(session, 'usd', doc.id);
    expect(cii).toContain('<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode><ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>');
    // 200.00 USD of VAT at 1 EUR = 1.085 USD: 184.33 EUR.
    expect(doc.tax).toBe(200);
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="EUR">184.33</ram:TaxTotalAmount>');
    expect(ubl).toContain('<cbc:TaxAmount currencyID="EUR">184.33</cbc:TaxAmount>');
  });

  it('a USD invoice at two rates: BT-111 is the VAT per rate at the rate kept at issue, as the FEC books it', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const usd = await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' });
    expect(usd.status).toBe(201);
    const customerId = await customer(session, { ...businessCustomer, currency: 'USD' });
    const doc = await issued(session, {
      customer_id: customerId,
      currency: 'USD',
      date: today,
      items: [line('Design', 1, 500, 20), line('Repas', 1, 1000, 10)],
    });
    // 100.00 USD of VAT at each rate, 92.1658… € each: 92.17 + 92.17 = 184.34 € (not 200 ÷ 1.085 = 184.33 at once).
    expect(doc.tax).toBe(200);
    // The rate moves after issue: the document keeps the one it was issued at.
    expect((await session.rest('PUT', `/api/currencies/${usd.body.data.id}`, { code: 'USD', rate: '1.2' })).status).toBe(200);
    const { cii, ubl } = await expectValid(session, 'usd-two-rates', doc.id);
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="EUR">184.34</ram:TaxTotalAmount>');
    expect(ubl).toContain('<cbc:TaxAmount currencyID="EUR">184.34</cbc:TaxAmount>');
    const fec = await session.rest('GET', `/api/exports/fec?year=${today.slice(0, 4)}`, undefined);
    const vatRows = String(fec.body)
      .split('\r\n')
      .map((row) => row.split('\t'))
      // Services unpaid: the VAT waits on 44574 (VAT on receipts), a line per rate as on 44571.
      .filter((f) => (f[4] === '44571' || f[4] === '44574') && f[8] === doc.number);
    expect(vatRows.map((f) => f[12])).toEqual(['92,17', '92,17']);
  });

  it('refuses drafts and other types (409), another organisation’s document (404), an unknown format (400)', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const pending = await draft(session, { customer_id: customerId, date: today, items: [line('Pose', 1, 100)] });
    const draftAnswer = await session.rest('GET', `/api/documents/${pending.id}/einvoice?format=cii`);
    expect(draftAnswer.status).toBe(409);
    expect(JSON.stringify(draftAnswer.body)).toContain('émettez d’abord le document');
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, date: today, items: [line('Pose', 1, 100)] });
    const estimateAnswer = await session.rest('GET', `/api/documents/${estimate.id}/einvoice?format=ubl`);
    expect(estimateAnswer.status).toBe(409);
    expect(JSON.stringify(estimateAnswer.body)).toContain('seules les factures et les avoirs');
    const invoice = await issued(session, { customer_id: customerId, date: today, items: [line('Pose', 1, 100)] });
    const badFormat = await session.rest('GET', `/api/documents/${invoice.id}/einvoice?format=pdf`);
    expect(badFormat.status).toBe(400);
    expect(JSON.stringify(badFormat.body)).toContain('Format : cii');
    const { session: other } = await registered(server.url);
    expect((await other.rest('GET', `/api/documents/${invoice.id}/einvoice?format=cii`)).status).toBe(404);
  });

  it('refuses to issue for a customer whose country it cannot write as an ISO code, naming it in French', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const customerId = await customer(session, {
      name: 'Nulle Part SARL',
      address: { line1: '1 rue Imaginaire', postal_code: '00000', city: 'Ys', country: 'Atlantide' },
    });
    const created = await draft(session, { customer_id: customerId, date: today, items: [line('Pose', 1, 100)] });
    const answer = await session.rest('POST', `/api/documents/${created.id}/issue`);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(
      'Mention obligatoire manquante : un pays reconnu pour le client (« Atlantide » : écrivez-le en toutes lettres, ex. Belgique, ou son code ISO BE) (fiche client)',
    );
  });

  it('reports the cost of generation and validation per invoice (warm)', () => {
    // The first validation of each syntax loads its SEF: the warm cost is the median of the others.
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    for (const format of ['cii', 'ubl']) {
      const rows = timings.filter((t) => t.format === format).slice(1);
      expect(rows.length).toBeGreaterThan(5);
      console.info(
        `${format}: generate (HTTP round trip) median ${median(rows.map((r) => r.generate)).toFixed(1)} ms, validate median ${median(rows.map((r) => r.validate)).toFixed(1)} ms over ${rows.length}`,
      );
    }
  });
});
