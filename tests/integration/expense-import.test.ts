import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { readFacturX } from '../../src/server/einvoice/facturx-read';
import { toFacturX } from '../../src/server/einvoice/facturx';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const upload = (filename: string, bytes: Buffer) => ({ filename, content_base64: bytes.toString('base64') });

const expenseCount = async (session: Session) => (await session.rest('GET', '/api/expenses?per_page=100')).body.total as number;
const receiptFiles = () => {
  const dir = path.join(server.dataDir, 'receipts');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.')).length : 0;
};

/**
 * What each official sample says (BT-1 number, BT-2 date, BT-9 due date, BT-27 seller, BT-31 VAT number, BT-112
 * total, BT-5 currency, BG-23 VAT per rate, BT-113 prepaid, BT-20 terms), read off the XML with another parser
 * (Python's ElementTree): the import must find the same figures. The VAT number is kept as this app normalises it (no
 * dots); a member state's number that fails its format (a Dutch number without its B01) is left out with a warning,
 * another country's tax id (Norway's MVA) kept as written. Every sample's seller is foreign (Dutch, Norwegian, Danish):
 * its VAT is that country's, imported not deductible.
 */
type Sample = {
  refusedVat?: string;
  invoice_number: string;
  date: string;
  due_date: string;
  supplier: string;
  supplier_vat_number: string;
  prepaid_amount?: number;
  payment_terms?: string;
  amount: number;
  currency: string;
  vat: { rate: number; amount: number; deductible: boolean }[];
};
const SAMPLES: Record<string, Sample> = {
  'cii/CII_example1.xml': {
    invoice_number: '12115118',
    date: '2015-01-09',
    due_date: '2015-01-09',
    supplier: 'De Koksmaat',
    supplier_vat_number: 'NL820098395B01',
    amount: 250.33,
    currency: 'EUR',
    vat: [
      { rate: 6, amount: 10.99, deductible: false },
      { rate: 21, amount: 9.74, deductible: false },
    ],
  },
  'cii/CII_example2.xml': {
    invoice_number: 'TOSL108',
    date: '2013-06-30',
    due_date: '2013-07-20',
    supplier: 'Salescompany ltd.',
    supplier_vat_number: 'NO123456789MVA',
    prepaid_amount: 1000,
    payment_terms: '2 % discount if paid within 2 days Penalty percentage 10% from due date',
    amount: 1801.78,
    currency: 'NOK',
    vat: [
      { rate: 25, amount: 365.13, deductible: false },
      { rate: 15, amount: 0.15, deductible: false },
      { rate: 0, amount: 0, deductible: false },
    ],
  },
  'cii/CII_example3.xml': {
    invoice_number: 'TOSL108',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SubscriptionSeller',
    supplier_vat_number: 'DK16356706',
    amount: 1125,
    currency: 'DKK',
    vat: [{ rate: 25, amount: 225, deductible: false }],
  },
  'cii/CII_example4.xml': {
    invoice_number: 'TOSL110',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SellerCompany',
    supplier_vat_number: 'DK16356706',
    amount: 4675,
    currency: 'DKK',
    vat: [
      { rate: 25, amount: 375, deductible: false },
      { rate: 12, amount: 300, deductible: false },
    ],
  },
  'cii/CII_example5.xml': {
    invoice_number: 'TOSL110',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SellerCompany',
    supplier_vat_number: '',
    refusedVat: 'NL16356706',
    prepaid_amount: 2337.5,
    payment_terms: '50% prepaid, 50% within one month',
    amount: 4675,
    currency: 'DKK',
    vat: [
      { rate: 25, amount: 375, deductible: false },
      { rate: 12, amount: 300, deductible: false },
    ],
  },
  'ubl/ubl-tc434-example1.xml': {
    invoice_number: '12115118',
    date: '2015-01-09',
    due_date: '2015-01-09',
    supplier: 'De Koksmaat',
    supplier_vat_number: 'NL820098395B01',
    amount: 250.33,
    currency: 'EUR',
    vat: [
      { rate: 6, amount: 10.99, deductible: false },
      { rate: 21, amount: 9.74, deductible: false },
    ],
  },
  'ubl/ubl-tc434-example2.xml': {
    invoice_number: 'TOSL108',
    date: '2013-06-30',
    due_date: '2013-07-20',
    supplier: 'Salescompany ltd.',
    supplier_vat_number: 'NO123456789MVA',
    prepaid_amount: 1000,
    payment_terms: '2 % discount if paid within 2 days Penalty percentage 10% from due date',
    amount: 1801.78,
    currency: 'NOK',
    vat: [
      { rate: 25, amount: 365.13, deductible: false },
      { rate: 15, amount: 0.15, deductible: false },
      { rate: 0, amount: 0, deductible: false },
    ],
  },
  'ubl/ubl-tc434-example3.xml': {
    invoice_number: 'TOSL108',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SubscriptionSeller',
    supplier_vat_number: 'DK16356706',
    amount: 2005,
    currency: 'DKK',
    vat: [
      { rate: 25, amount: 225, deductible: false },
      { rate: 10, amount: 80, deductible: false },
    ],
  },
  'ubl/ubl-tc434-example4.xml': {
    invoice_number: 'TOSL110',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SellerCompany',
    supplier_vat_number: 'DK16356706',
    amount: 4675,
    currency: 'DKK',
    vat: [
      { rate: 25, amount: 375, deductible: false },
      { rate: 12, amount: 300, deductible: false },
    ],
  },
  'ubl/ubl-tc434-example5.xml': {
    invoice_number: 'TOSL110',
    date: '2013-04-10',
    due_date: '2013-05-10',
    supplier: 'SellerCompany',
    supplier_vat_number: '',
    refusedVat: 'NL16356706',
    prepaid_amount: 2337.5,
    payment_terms: '50% prepaid, 50% within one month',
    amount: 4675,
    currency: 'DKK',
    vat: [
      { rate: 25, amount: 375, deductible: false },
      { rate: 12, amount: 300, deductible: false },
    ],
  },
};

describe('POST /api/expenses/import: a supplier’s e-invoice becomes an expense', () => {
  for (const [name, expected] of Object.entries(SAMPLES)) {
    it(`imports the official sample ${name}: supplier, number, dates, total and VAT per rate as the XML says`, async () => {
      const { session } = await registered(server.url);
      const bytes = fixture(name);
      const answer = await session.rest('POST', '/api/expenses/import', upload(path.basename(name), bytes));
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.messages).toBe('Facture importée : vérifiez la catégorie');
      const expense = answer.body.data;
      const { vat, refusedVat, ...fields } = expected;
      if (refusedVat) expect(answer.body.warnings).toContain(`N° de TVA du fournisseur « ${refusedVat} » non repris : invalide`);
      // Foreign VAT is never ticked deductible: the reason is said at import and kept beside the expense's VAT.
      expect(answer.body.warnings.some((w: string) => w.startsWith('TVA étrangère'))).toBe(true);
      expect(expense.vat_note).toMatch(/^TVA étrangère \((Pays-Bas|Norvège|Danemark)\) : non déductible sur la déclaration française/);
      expect(expense).toMatchObject({
        prepaid_amount: 0,
        payment_terms: '',
        ...fields,
        source: 'einvoice',
        category: 'autres',
        status: 'unpaid',
      });
      expect(expense.vat).toEqual(vat);
      // The file is the receipt, byte for byte, shown as text (an XML is never served as XML on the app's origin).
      expect(expense.receipt).toEqual({ filename: path.basename(name), content_type: 'application/xml', size: bytes.length });
      const receipt = await session.fetch(`${server.url}/api/expenses/${expense.id}/receipt`);
      expect(receipt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(Buffer.from(await receipt.arrayBuffer()).equals(bytes)).toBe(true);
    });
  }

  it('imports a Factur-X PDF issued by Facturier itself: the seller’s SIREN, VAT number, number and amounts', async () => {
    const seller = await registered(server.url);
    const { customerId } = await readyToInvoice(seller.session);
    const invoice = await issued(seller.session, {
      customer_id: customerId,
      maturity: '2026-12-02',
      items: [line('Conseil', 2, 450), line('Livre', 1, 100, 5.5)],
    });
    // The kept PDF as the issue makes it (renderKeptPdf): Chromium's print of an invoice, made Factur-X with the CII
    // this server answers for the invoice. No browser here: the print is the real one kept in the fixtures.
    const cii = await seller.session.fetch(`${server.url}/api/documents/${invoice.id}/einvoice?format=cii`);
    expect(cii.status).toBe(200);
    const pdf = Buffer.from(
      await toFacturX(fixture('chromium-invoice.pdf'), await cii.text(), {
        type: 'invoice',
        number: invoice.number,
        seller: 'Atelier Fontaine',
        issuedAt: new Date('2026-11-02T10:00:00Z'),
        lang: 'fr',
      }),
    );
    expect((await readFacturX(pdf))?.name).toBe('factur-x.xml');

    const buyer = await registered(server.url);
    const answer = await buyer.session.rest('POST', '/api/expenses/import', upload(`Facture-${invoice.number}.pdf`, pdf));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.warnings).toEqual([]);
    expect(answer.body.data).toMatchObject({
      supplier: 'Atelier Fontaine',
      supplier_siren: '552032534',
      supplier_vat_number: 'FR27552032534',
      invoice_number: invoice.number,
      date: '2026-11-02',
      due_date: '2026-12-02',
      amount: 1185.5,
      currency: 'EUR',
      vat: [
        { rate: 5.5, amount: 5.5, deductible: true },
        { rate: 20, amount: 180, deductible: true },
      ],
      receipt: { filename: `Facture-${invoice.number}.pdf`, content_type: 'application/pdf', size: pdf.length },
    });
  });

  it('the same file twice: 409 « déjà importée » naming the first expense, no second expense, no second file', async () => {
    const { session } = await registered(server.url);
    const bytes = fixture('ubl/ubl-tc434-example1.xml');
    const first = await session.rest('POST', '/api/expenses/import', upload('a.xml', bytes));
    expect(first.status).toBe(201);
    const files = receiptFiles();
    const again = await session.rest('POST', '/api/expenses/import', upload('renamed.xml', bytes));
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe(
      `Cette facture a déjà été importée : facture n° 12115118 de De Koksmaat du 09/01/2015 (dépense ${first.body.data.id})`,
    );
    expect(await expenseCount(session)).toBe(1);
    expect(receiptFiles()).toBe(files);
    // Another organisation may import the same invoice: the check is per organisation.
    const { session: other } = await registered(server.url);
    expect((await other.rest('POST', '/api/expenses/import', upload('a.xml', bytes))).status).toBe(201);
  });

  it('the same supplier invoice in another file (its UBL after its CII): 409 naming the expense; another supplier’s same number is imported', async () => {
    const { session } = await registered(server.url);
    const first = await session.rest('POST', '/api/expenses/import', upload('koksmaat.xml', fixture('cii/CII_example1.xml')));
    expect(first.status).toBe(201);
    const files = receiptFiles();
    const again = await session.rest('POST', '/api/expenses/import', upload('koksmaat-ubl.xml', fixture('ubl/ubl-tc434-example1.xml')));
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe(
      `Cette facture a déjà été importée : facture n° 12115118 de De Koksmaat du 09/01/2015 (dépense ${first.body.data.id})`,
    );
    expect(await expenseCount(session)).toBe(1);
    expect(receiptFiles()).toBe(files);
    // TOSL108 from a Norwegian seller, then TOSL108 from a Danish one: two suppliers, two expenses.
    expect((await session.rest('POST', '/api/expenses/import', upload('no.xml', fixture('cii/CII_example2.xml')))).status).toBe(201);
    expect((await session.rest('POST', '/api/expenses/import', upload('dk.xml', fixture('cii/CII_example3.xml')))).status).toBe(201);
    expect(await expenseCount(session)).toBe(3);
  });

  it('four files of one invoice sent at once make one expense; the others answer 409', async () => {
    const { session } = await registered(server.url);
    const cii = fixture('cii/CII_example1.xml');
    const ubl = fixture('ubl/ubl-tc434-example1.xml');
    const answers = await Promise.all(
      [cii, ubl, Buffer.concat([cii, Buffer.from('\n')]), Buffer.concat([ubl, Buffer.from('\n')])].map((bytes, i) =>
        session.rest('POST', '/api/expenses/import', upload(`copy-${i}.xml`, bytes)),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await expenseCount(session)).toBe(1);
  });

  it('foreign VAT imported stays off line 20 of the VAT return', async () => {
    const { session } = await registered(server.url);
    const dutch = await session.rest('POST', '/api/expenses/import', upload('koksmaat.xml', fixture('cii/CII_example1.xml')));
    expect(dutch.status).toBe(201);
    const report = await session.rest('GET', '/api/reports/vat?from=2015-01-01&to=2015-01-31');
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.deductible).toEqual([]);
  });

  it('the tRPC door answers the same expense', async () => {
    const { session } = await registered(server.url);
    const answer = await session.trpc().expenses.importEinvoice.mutate(upload('CII_example2.xml', fixture('cii/CII_example2.xml')));
    expect(answer.data).toMatchObject({ invoice_number: 'TOSL108', source: 'einvoice', currency: 'NOK' });
  });

  const pdfWithoutInvoice = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  const BAD: [string, { filename: string; content_base64: string }, string | RegExp][] = [
    [
      'an XML that is not an invoice',
      upload('commande.xml', Buffer.from('<?xml version="1.0"?><Order xmlns="urn:x"><ID>1</ID></Order>')),
      'Ce XML n’est pas une facture électronique : élément racine Order (attendu CrossIndustryInvoice pour CII, Invoice pour UBL)',
    ],
    [
      'unparseable XML',
      upload('cassé.xml', Buffer.from('<?xml version="1.0"?><Invoice><cbc:ID>')),
      /^Le fichier n’est pas un XML lisible \(ligne 1\) : /,
    ],
    [
      'a corrupted PDF',
      upload('abîmé.pdf', Buffer.from('%PDF-1.7\n\u0000\u0001garbage that is no PDF at all')),
      'Fichier : « abîmé.pdf » est un PDF abîmé ou illisible',
    ],
    [
      'a PDF without an e-invoice',
      upload('scan.pdf', pdfWithoutInvoice),
      'Fichier : « scan.pdf » est un PDF sans facture électronique jointe (ni Factur-X ni ZUGFeRD) ; saisissez la dépense et joignez-le comme justificatif',
    ],
    [
      'a file over 10 MB',
      upload('gros.xml', Buffer.alloc(10 * 1024 * 1024 + 1, 0x20)),
      'Fichier : 10 Mo au plus (ce fichier fait 10,0 Mo)',
    ],
    [
      'bad base64',
      { filename: 'a.xml', content_base64: 'PD94bWwg=dmVyc2lvbj0iMS4wIj8+' },
      'Fichier : le contenu n’est pas du base64 valide (le fichier a été abîmé à l’envoi)',
    ],
    ['not base64 at all', { filename: 'a.xml', content_base64: '<Invoice/>' }, 'Fichier : contenu base64 attendu'],
    [
      'a PNG',
      upload(
        'photo.png',
        Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
      ),
      'Fichier : « photo.png » n’est ni un PDF Factur-X/ZUGFeRD ni un XML CII ou UBL',
    ],
    [
      'an XML with a DOCTYPE',
      upload('xxe.xml', Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')),
      'Le fichier n’est pas un XML lisible (ligne 1) : Une facture électronique ne doit pas contenir de DOCTYPE',
    ],
    [
      'an invoice without its total',
      upload(
        'sans-total.xml',
        Buffer.from(
          fixture('cii/CII_example1.xml')
            .toString('utf8')
            .replace(/<ram:GrandTotalAmount>[^<]*<\/ram:GrandTotalAmount>/, ''),
        ),
      ),
      'Montant TTC : montant illisible dans la facture (« absent »)',
    ],
    ['no file name', { filename: '', content_base64: 'PHg+' }, 'Fichier : le nom du fichier est attendu'],
  ];
  for (const [what, body, message] of BAD) {
    it(`refuses ${what} with a French 400, writing nothing`, async () => {
      const { session } = await registered(server.url);
      const files = receiptFiles();
      const answer = await session.rest('POST', '/api/expenses/import', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      const messages = Array.isArray(answer.body.messages) ? answer.body.messages.join('\n') : answer.body.messages;
      if (typeof message === 'string') expect(messages).toBe(message);
      else expect(messages).toMatch(message);
      expect(await expenseCount(session)).toBe(0);
      expect(receiptFiles()).toBe(files);
    });
  }
});
