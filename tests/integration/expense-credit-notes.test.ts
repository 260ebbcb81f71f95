import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { toFacturX } from '../../src/server/einvoice/facturx';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const upload = (filename: string, bytes: Buffer) => ({ filename, content_base64: bytes.toString('base64') });

async function imported(session: Session, name: string) {
  const answer = await session.rest('POST', '/api/expenses/import', upload(path.basename(name), fixture(name)));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}
async function create(session: Session, body: Record<string, unknown>) {
  const answer = await session.rest('POST', '/api/expenses', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}
function storedRow(id: number) {
  return withServerDb(server, (db) =>
    db
      .selectFrom('expenses')
      .select(['kind', 'amount', 'vat_total', 'deductible_vat', 'corrects_id'])
      .where('id', '=', id)
      .executeTakeFirst(),
  );
}

const paper = {
  date: '2026-03-02',
  supplier: 'Bureau Vallée',
  supplier_siren: '',
  category: 'fournitures',
  label: 'Ramettes',
  amount: 120,
  vat: [{ rate: 20, amount: 20 }],
  invoice_number: 'BV-88',
};

describe('supplier credit notes (« avoir fournisseur »)', () => {
  it('imports the official UBL credit note sample as an « Avoir »: its amounts negative, its category to check', async () => {
    const { session } = await registered(server.url);
    const answer = await imported(session, 'ubl/ubl-tc434-creditnote1.xml');
    expect(answer.messages).toBe('Avoir importé : vérifiez la catégorie');
    expect(answer.warnings).toEqual([]); // an official sample breaks no EN 16931 rule
    expect(answer.data).toMatchObject({
      kind: 'credit_note',
      invoice_number: '018304 / 28865',
      date: '2019-09-23',
      supplier: 'My Supplier Company',
      label: 'Avoir 018304 / 28865',
      amount: -100.11,
      net: -100.11,
      vat_total: 0,
      currency: 'EUR',
      preceding_invoice_number: '',
      corrects: null,
      category_to_check: true,
      source: 'einvoice',
    });
    // Stored negative: every sum of expenses counts it against them.
    expect(await storedRow(answer.data.id)).toMatchObject({ kind: 'credit_note', amount: -1001100, corrects_id: null });
  });

  it('imports a CII credit note (type 381) linked to the supplier invoice it corrects (BT-25): figures and reports go down', async () => {
    const { session } = await registered(server.url);
    const invoice = (await imported(session, 'cii/CII_example1.xml')).data;
    const before = await session.rest('GET', '/api/expenses/figures?from=2015-01-01&to=2015-01-31');
    expect(before.body.months).toEqual([
      // Dutch VAT (6 % and 21 %) is not deductible in France: kept, unticked (refunded only through directive 2008/9).
      { month: '2015-01', currency: 'EUR', count: 1, amount: 250.33, net: 229.6, vat: 20.73, deductible_vat: 0 },
    ]);

    const answer = await imported(session, 'cii-credit-note-example1.xml');
    const credit = answer.data;
    // A valid EN 16931 credit note: the one warning says why its Dutch VAT is not deductible here.
    expect(answer.warnings).toEqual([expect.stringMatching(/^TVA étrangère \(Pays-Bas\) : non déductible/)]);
    expect(credit).toMatchObject({
      kind: 'credit_note',
      invoice_number: 'AV-12115118',
      preceding_invoice_number: '12115118',
      corrects: { id: invoice.id, invoice_number: '12115118', date: '2015-01-09' },
      amount: -250.33,
      vat_total: -20.73,
      deductible_vat: 0,
      vat: [
        { rate: 6, amount: -10.99, deductible: false },
        { rate: 21, amount: -9.74, deductible: false },
      ],
    });
    expect((await session.rest('GET', `/api/expenses/${credit.id}`)).body.corrects).toEqual(credit.corrects);

    // The invoice and its full credit: the month's expenses and its deductible VAT come back to zero.
    const after = await session.rest('GET', '/api/expenses/figures?from=2015-01-01&to=2015-01-31');
    expect(after.body.months).toEqual([{ month: '2015-01', currency: 'EUR', count: 2, amount: 0, net: 0, vat: 0, deductible_vat: 0 }]);
    // Neither carries deductible VAT: no rate to show.
    expect(after.body.deductible).toEqual([]);
    const vat = await session.rest('GET', '/api/reports/vat?from=2015-01-01&to=2015-01-31');
    expect(vat.status, JSON.stringify(vat.body)).toBe(200);
    expect(vat.body).toMatchObject({ deductible: [], due: 0 });
  });

  it('a credit note imported before its invoice is linked once the invoice comes in', async () => {
    const { session } = await registered(server.url);
    const credit = (await imported(session, 'cii-credit-note-example1.xml')).data;
    expect(credit.corrects).toBeNull();
    const invoice = (await imported(session, 'ubl/ubl-tc434-example1.xml')).data; // the same invoice 12115118, as UBL
    const after = await session.rest('GET', `/api/expenses/${credit.id}`);
    expect(after.body.corrects).toEqual({ id: invoice.id, invoice_number: '12115118', date: '2015-01-09' });

    // The invoice renumbered, then deleted: the credit note names it no more, then is linked to nothing.
    const { id: _id, receipt: _receipt, corrects: _corrects, ...fields } = invoice;
    const renumbered = await session.rest('PUT', `/api/expenses/${invoice.id}`, { ...fields, invoice_number: '12115118-B' });
    expect(renumbered.status, JSON.stringify(renumbered.body)).toBe(200);
    expect((await session.rest('GET', `/api/expenses/${credit.id}`)).body.corrects).toBeNull();
    await session.rest('PUT', `/api/expenses/${invoice.id}`, fields);
    expect((await session.rest('GET', `/api/expenses/${credit.id}`)).body.corrects?.id).toBe(invoice.id);
    expect((await session.rest('DELETE', `/api/expenses/${invoice.id}`)).status).toBe(200);
    expect((await session.rest('GET', `/api/expenses/${credit.id}`)).body.corrects).toBeNull();
  });

  it('a Factur-X credit note issued by Facturier itself, and its UBL twin: linked to the invoice imported before (BT-25)', async () => {
    const seller = await registered(server.url);
    const { customerId } = await readyToInvoice(seller.session);
    const invoice = await issued(seller.session, { customer_id: customerId, items: [line('Conseil', 2, 450)] });
    const draft = (await seller.session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    const credit = (await seller.session.rest('POST', `/api/documents/${draft.id}/issue`)).body.data;
    const einvoice = async (id: number, format: 'cii' | 'ubl') =>
      (await seller.session.fetch(`${server.url}/api/documents/${id}/einvoice?format=${format}`)).text();
    // The PDFs as the issue keeps them: Chromium's print (the one in the fixtures) made Factur-X with the server's CII.
    const facturX = async (id: number, type: 'invoice' | 'credit', number: string) =>
      Buffer.from(
        await toFacturX(fixture('chromium-invoice.pdf'), await einvoice(id, 'cii'), {
          type,
          number,
          seller: 'Atelier Fontaine',
          issuedAt: new Date('2026-11-02T10:00:00Z'),
          lang: 'fr',
        }),
      );

    const buyer = (await registered(server.url)).session;
    const bought = await buyer.rest(
      'POST',
      '/api/expenses/import',
      upload('facture.pdf', await facturX(invoice.id, 'invoice', invoice.number)),
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const answer = await buyer.rest('POST', '/api/expenses/import', upload('avoir.pdf', await facturX(credit.id, 'credit', credit.number)));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.warnings).toEqual([]);
    expect(answer.body.data).toMatchObject({
      kind: 'credit_note',
      supplier_siren: '552032534',
      invoice_number: credit.number,
      preceding_invoice_number: invoice.number,
      corrects: { id: bought.body.data.id, invoice_number: invoice.number },
      amount: -1080,
      vat: [{ rate: 20, amount: -180, deductible: true }],
      receipt: { content_type: 'application/pdf' },
    });

    // The same credit note as UBL (a CreditNote document) in another organisation's books reads the same.
    const other = (await registered(server.url)).session;
    const ubl = await other.rest('POST', '/api/expenses/import', upload('avoir.xml', Buffer.from(await einvoice(credit.id, 'ubl'))));
    expect(ubl.status, JSON.stringify(ubl.body)).toBe(201);
    expect(ubl.body.data).toMatchObject({ kind: 'credit_note', preceding_invoice_number: invoice.number, corrects: null, amount: -1080 });
  });

  it('an invoice (380) with a negative total is a credit in all but name: imported as an « Avoir », amounts kept the right way', async () => {
    const { session } = await registered(server.url);
    const negative = fixture('cii/CII_example1.xml')
      .toString('utf8')
      .replace('<ram:GrandTotalAmount>250.33</ram:GrandTotalAmount>', '<ram:GrandTotalAmount>-250.33</ram:GrandTotalAmount>')
      .replace('<ram:CalculatedAmount>10.99</ram:CalculatedAmount>', '<ram:CalculatedAmount>-10.99</ram:CalculatedAmount>')
      .replace('<ram:CalculatedAmount>9.74</ram:CalculatedAmount>', '<ram:CalculatedAmount>-9.74</ram:CalculatedAmount>');
    const answer = await session.rest('POST', '/api/expenses/import', upload('negative.xml', Buffer.from(negative)));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toMatchObject({
      kind: 'credit_note',
      label: 'Avoir 12115118',
      amount: -250.33,
      vat: [
        { rate: 6, amount: -10.99, deductible: false },
        { rate: 21, amount: -9.74, deductible: false },
      ],
    });
  });

  it('a manual credit note: typed positive with « Avoir fournisseur », linked by number and supplier, larger than its invoice is allowed', async () => {
    const { session } = await registered(server.url);
    const invoice = await create(session, paper);
    await create(session, { ...paper, supplier: 'Autre fournisseur', amount: 50, vat: [] }); // same number, another supplier
    const credit = await create(session, {
      ...paper,
      date: '2026-03-20',
      supplier: 'bureau vallée', // the supplier as typed again, another case
      label: 'Retour de cartons',
      kind: 'credit_note',
      preceding_invoice_number: 'BV-88',
      invoice_number: 'AV-12',
      amount: 150, // more than the invoice: suppliers do that (a commercial gesture)
      vat: [{ rate: 20, amount: 25 }],
    });
    expect(credit).toMatchObject({
      kind: 'credit_note',
      amount: -150,
      vat_total: -25,
      net: -125,
      corrects: { id: invoice.id, invoice_number: 'BV-88', date: '2026-03-02' },
      category_to_check: false,
    });

    // The list's filtered totals and the CSV count it negatively.
    const list = await session.rest('GET', '/api/expenses?supplier=bureau');
    expect(list.body.total).toBe(2);
    expect(list.body.sums).toEqual([{ currency: 'EUR', count: 2, amount: -30, vat: -5, deductible_vat: -5 }]);
    const credits = await session.rest('GET', '/api/expenses?kind=credit_note');
    expect(credits.body.data.map((e: { id: number }) => e.id)).toEqual([credit.id]);
    const csv = await session.rest('GET', '/api/expenses/export?supplier=bureau');
    // The export is the CSV file itself (a JSON answer only when asked for with Accept: application/json).
    const content: string = csv.body;
    const [header, ...rows] = content.slice(1).split('\r\n');
    expect(header).toContain('Type;N° de facture;Facture corrigée');
    expect(rows.find((r) => r.includes('AV-12'))).toMatch(/;Avoir;AV-12;BV-88;.*;-125,00;-25,00;-25,00;-150,00;/);
    expect(rows.find((r) => r.includes(';BV-88;;'))).toMatch(/;Dépense;BV-88;;/);

    // The figures the reports read: the month's expenses and the deductible VAT at 20 % go down by the credit note.
    const figures = await session.rest('GET', '/api/expenses/figures?from=2026-03-01&to=2026-03-31');
    expect(figures.body).toEqual({
      months: [{ month: '2026-03', currency: 'EUR', count: 3, amount: 20, net: 25, vat: -5, deductible_vat: -5 }],
      deductible: [{ rate: 20, base: -25, amount: -5 }],
    });
    const vat = await session.rest('GET', '/api/reports/vat?from=2026-03-01&to=2026-03-31');
    expect(vat.body.deductible).toEqual([{ rate: 20, base: -25, amount: -5 }]);
    const margin = await session.rest('GET', '/api/reports/margin?from=2026-03-01&to=2026-03-31');
    // Expenses HT of the month: 100 + 50 − 125.
    expect(margin.body.data).toEqual([{ period: '2026-03', turnover: 0, expenses: 25, margin: -25 }]);

    // Turned back into an expense, the link goes: only a credit note corrects an invoice.
    const back = await session.rest('PUT', `/api/expenses/${credit.id}`, { ...paper, amount: 150, vat: [] });
    expect(back.body.data).toMatchObject({ kind: 'expense', amount: 150, corrects: null, preceding_invoice_number: '' });
  });

  it('a credit note whose invoice is not among the expenses keeps the number, without a link', async () => {
    const { session } = await registered(server.url);
    const credit = await create(session, { ...paper, kind: 'credit_note', preceding_invoice_number: 'INCONNUE-1' });
    expect(credit).toMatchObject({ preceding_invoice_number: 'INCONNUE-1', corrects: null, amount: -120 });
  });

  it('another organisation’s invoice is never linked', async () => {
    const other = (await registered(server.url)).session;
    await create(other, paper);
    const { session } = await registered(server.url);
    const credit = await create(session, { ...paper, kind: 'credit_note', preceding_invoice_number: 'BV-88' });
    expect(credit.corrects).toBeNull();
  });

  const BAD: [string, Record<string, unknown>, string][] = [
    [
      'a negative amount',
      { ...paper, amount: -120, vat: [] },
      'Montant TTC : il doit être positif ; pour un remboursement ou une remise du fournisseur, cochez « Avoir fournisseur »',
    ],
    [
      'a negative VAT',
      { ...paper, vat: [{ rate: 20, amount: -20 }] },
      'Montant de TVA : il ne peut pas être négatif ; pour un remboursement ou une remise du fournisseur, cochez « Avoir fournisseur »',
    ],
    [
      'a negative amount on a credit note',
      { ...paper, kind: 'credit_note', amount: '-120,00', vat: [] },
      'Montant TTC : il doit être positif ; pour un remboursement ou une remise du fournisseur, cochez « Avoir fournisseur »',
    ],
    [
      'a corrected invoice on an expense',
      { ...paper, preceding_invoice_number: 'BV-1' },
      'Facture corrigée : seul un avoir fournisseur corrige une facture',
    ],
    ['an unknown kind', { ...paper, kind: 'refund' }, 'Type : expense (dépense) ou credit_note (avoir fournisseur)'],
  ];
  for (const [what, body, message] of BAD) {
    it(`refuses ${what} with a French 400, writing nothing`, async () => {
      const { session } = await registered(server.url);
      const answer = await session.rest('POST', '/api/expenses', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      const messages = Array.isArray(answer.body.messages) ? answer.body.messages.join('\n') : answer.body.messages;
      expect(messages).toBe(message);
      expect((await session.rest('GET', '/api/expenses')).body.total).toBe(0);
    });
  }
});

describe('« Vérifiez la catégorie » persists until the user saves the expense', () => {
  it('an imported expense is « à vérifier », filtered as such, until saved with a category; a manual one never is', async () => {
    const { session } = await registered(server.url);
    const invoice = (await imported(session, 'ubl/ubl-tc434-example1.xml')).data;
    const manual = await create(session, paper);
    expect(invoice.category_to_check).toBe(true);
    expect(manual.category_to_check).toBe(false);
    expect((await session.rest('GET', `/api/expenses/${invoice.id}`)).body.category_to_check).toBe(true);

    const toCheck = await session.rest('GET', '/api/expenses?to_check=true');
    expect(toCheck.body.data.map((e: { id: number }) => e.id)).toEqual([invoice.id]);
    expect(toCheck.body.sums).toEqual([{ currency: 'EUR', count: 1, amount: 250.33, vat: 20.73, deductible_vat: 0 }]);

    // A receipt attached is no confirmation; saving the expense (its category a required field) is.
    const { receipt: _receipt, id: _id, ...fields } = invoice;
    const saved = await session.trpc().expenses.update.mutate({
      id: invoice.id,
      data: {
        date: fields.date,
        supplier: fields.supplier,
        supplier_vat_number: fields.supplier_vat_number,
        category: 'repas',
        amount: fields.amount,
        vat: fields.vat,
        currency: fields.currency,
        invoice_number: fields.invoice_number,
      },
    });
    expect(saved.data).toMatchObject({ category: 'repas', category_to_check: false });
    expect((await session.rest('GET', '/api/expenses?to_check=true')).body.total).toBe(0);
    expect((await session.rest('GET', '/api/expenses?to_check=false')).body.total).toBe(2);
  });
});
