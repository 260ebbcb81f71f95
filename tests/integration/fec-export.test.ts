import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { FEC_FIELDS } from '../../src/shared/fec/format';
import { checkFec } from '../../src/shared/fec/check';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Documents converted from another (credit note, deposit, final invoice) are dated the day they are made: every
// document of the seeded year is dated today, so the test holds whatever day it runs.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = Number(today.slice(0, 4));

type Row = Record<(typeof FEC_FIELDS)[number], string>;

/** GET the FEC as bytes, decoded as the ISO-8859-15 it declares, split into rows of named fields. */
async function fec(session: Session, query: string) {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec${query}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder('iso-8859-15').decode(bytes);
  const lines = text.split('\r\n');
  const rows: Row[] = lines.slice(1, -1).map((l) => {
    const cells = l.split('\t');
    expect(cells, l).toHaveLength(18);
    return Object.fromEntries(FEC_FIELDS.map((f, i) => [f, cells[i] ?? ''])) as Row;
  });
  return { response, bytes, text, lines, rows };
}

/** '1234,56' → 123456 (cents): amounts are compared as integers. */
const cents = (amount: string) => {
  expect(amount).toMatch(/^\d+,\d{2}$/);
  return Number(amount.replace(',', ''));
};
const net = (rows: Row[], account: string) =>
  rows.filter((r) => r.CompteNum === account).reduce((a, r) => a + cents(r.Credit) - cents(r.Debit), 0);
const toCents = (amount: number) => Math.round(amount * 100);

describe('GET /api/exports/fec', () => {
  it('exports a seeded year: 18 fields a line, balanced entries, 411 per customer, revenue by nature, VAT by rate, payments in BQ', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const other = (
      await session.rest('POST', '/api/customers', {
        name: 'Café du Port',
        type: 'individual',
        address: { line1: '1 quai', postal_code: '13002', city: 'Marseille' },
      })
    ).body.data.id;

    // Services and goods at two rates, shipping and a document discount.
    const mixed = await issued(session, {
      customer_id: customerId,
      date: today,
      items: [line('Pose', 2, 450, 20), line('Fournitures', 3, 49.99, 5.5, { kind: 'goods' })],
      shipping: 25,
      discount_type: 'percent',
      discount_value: 10,
    });
    // Prices typed including tax, to another customer.
    const ttc = await issued(session, { customer_id: other, date: today, price_mode: 'ttc', items: [line('Formation', 3, 99.99, 20)] });
    // A credit note for the whole TTC invoice.
    const credit = (await session.rest('POST', `/api/documents/${ttc.id}/convert`, { type: 'credit' })).body.data;
    const issuedCredit = (await session.rest('POST', `/api/documents/${credit.id}/issue`)).body.data;
    // A deposit on an estimate, then the final invoice that deducts it.
    const estimate = await issued(session, {
      type: 'estimate',
      customer_id: customerId,
      date: today,
      items: [line('Cuisine', 1, 1000, 20)],
    });
    const deposit = (await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 })).body.data;
    const issuedDeposit = (await session.rest('POST', `/api/documents/${deposit.id}/issue`)).body.data;
    const final = (await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    const issuedFinal = (await session.rest('POST', `/api/documents/${final.id}/issue`)).body.data;
    // A payment, a second one reversed by a counter-entry; a draft that must not appear.
    await session.rest('POST', `/api/documents/${mixed.id}/payments`, { date: today, amount: 500 });
    const wrong = (await session.rest('POST', `/api/documents/${mixed.id}/payments`, { date: today, amount: 100 })).body.data;
    expect((await session.rest('DELETE', `/api/documents/${mixed.id}/payments/${wrong.id}`)).status).toBe(200);
    await draft(session, { customer_id: customerId, date: today, items: [line('Brouillon', 1, 999)] });

    const { response, lines, rows, text } = await fec(session, `?year=${year}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=iso-8859-15');
    const exportDay = today.replaceAll('-', '');
    // Named after the closing date of the fiscal year (a calendar year by default), not the day of the export.
    expect(response.headers.get('content-disposition')).toContain(`filename="552032534FEC${year}1231.txt"`);
    expect(lines[0]).toBe(FEC_FIELDS.join('\t'));
    expect(lines.at(-1)).toBe('');

    // Every entry balances, to the cent.
    const entries = new Map<string, Row[]>();
    for (const r of rows)
      entries.set(`${r.JournalCode} ${r.EcritureNum}`, [...(entries.get(`${r.JournalCode} ${r.EcritureNum}`) ?? []), r]);
    expect([...entries.keys()].sort()).toEqual([
      'BQ BQ000001',
      'BQ BQ000002',
      'BQ BQ000003',
      // The VAT of the services the day's payments settled, moved from 44574 to 44571.
      'OD OD000001',
      'VT VT000001',
      'VT VT000002',
      'VT VT000003',
      'VT VT000004',
      'VT VT000005',
    ]);
    for (const [key, entryRows] of entries) {
      const debit = entryRows.reduce((a, r) => a + cents(r.Debit), 0);
      const credit = entryRows.reduce((a, r) => a + cents(r.Credit), 0);
      expect(debit, key).toBe(credit);
      expect(new Set(entryRows.map((r) => r.PieceRef)).size, key).toBe(1);
    }
    for (const r of rows) {
      expect(r.EcritureDate).toBe(exportDay);
      expect(r.ValidDate).toMatch(/^\d{8}$/);
      expect(cents(r.Debit) === 0 || cents(r.Credit) === 0).toBe(true);
    }
    // Entries of one day in the order they were issued: the credit note after the invoice it cancels.
    const pieces = [...new Set(rows.filter((r) => r.JournalCode === 'VT').map((r) => `${r.EcritureNum} ${r.PieceRef}`))];
    expect(pieces).toEqual(
      [mixed.number, ttc.number, issuedCredit.number, issuedDeposit.number, issuedFinal.number].map((n, i) => `VT00000${i + 1} ${n}`),
    );
    expect(rows.find((r) => r.PieceRef === issuedDeposit.number)?.EcritureLib).toBe(
      `Facture d'acompte ${issuedDeposit.number} Boulangerie Martin`,
    );

    // 411: one auxiliary account per customer; the customers' balance is what is still owed.
    const customerRows = rows.filter((r) => r.CompteNum === '411');
    expect(new Set(customerRows.map((r) => `${r.CompAuxNum} ${r.CompAuxLib}`))).toEqual(
      new Set(['CL-00001 Boulangerie Martin', 'CL-00002 Café du Port']),
    );
    expect(rows.filter((r) => r.CompteNum !== '411').every((r) => r.CompAuxNum === '' && r.CompAuxLib === '')).toBe(true);
    const owed = toCents(mixed.total) - 500_00 + toCents(issuedFinal.total) - toCents(issuedDeposit.total) + toCents(issuedDeposit.total);
    expect(-net(rows, '411')).toBe(owed);

    // Revenue by nature net of the discount and the credit note; the deposit is in 4191 and then taken back out.
    const revenue = (doc: { subtotal: number; discount: number }) => toCents(doc.subtotal) - toCents(doc.discount);
    expect(net(rows, '706') + net(rows, '707')).toBe(revenue(mixed) + revenue(ttc) - revenue(issuedCredit) + revenue(issuedFinal));
    expect(net(rows, '707')).toBeGreaterThan(0);
    expect(net(rows, '708')).toBe(2500);
    expect(net(rows, '4191')).toBe(0);
    // VAT collected: one line per rate; the deposit's VAT counted once (on the final invoice's full VAT). What the
    // services not yet paid carry waits on 44574 (VAT on receipts), the rest is due on 44571.
    expect(net(rows, '44571') + net(rows, '44574')).toBe(
      toCents(mixed.tax) + toCents(ttc.tax) - toCents(issuedCredit.tax) + toCents(issuedFinal.tax),
    );
    expect(net(rows, '44574')).toBeGreaterThan(0);
    // One label per account.
    const mixedVat = rows.filter((r) => r.PieceRef === mixed.number && r.CompteNum.startsWith('4457'));
    expect(new Set(mixedVat.map((r) => `${r.CompteNum} ${r.CompteLib}`))).toEqual(
      new Set(['44571 TVA collectée', '44574 TVA collectée sur encaissements']),
    );
    expect(checkFec(text, { closingDate: `${year}-12-31`, openingDate: `${year}-01-01` })).toEqual([]);
    // Bank: 500 received, 100 received then cancelled.
    expect(-net(rows, '512')).toBe(500_00);
    expect(rows.filter((r) => r.JournalCode === 'BQ').map((r) => r.JournalLib)).toEqual(Array(6).fill('Banque'));
    expect(rows.filter((r) => r.JournalCode === 'VT').every((r) => r.JournalLib === 'Ventes')).toBe(true);
  });

  it('books to the accounts saved under Paramètres → Comptabilité; a bad account number is refused, naming the field', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const advice = await issued(session, { customer_id: customerId, date: today, items: [line('Conseil', 1, 100, 20)] });
    expect((await session.rest('POST', `/api/documents/${advice.id}/payments`, { date: today, amount: 120 })).status).toBe(201);
    const defaults = await session.rest('GET', '/api/exports/accounts');
    expect(defaults.body).toEqual({
      customers: '411',
      services: '706',
      goods: '707',
      shipping: '708',
      deposits: '4191',
      vat: '44571',
      vat_on_receipts: '44574',
      bank: '512',
      suppliers: '401',
      deductible_vat: '44566',
      deductible_vat_on_receipts: '44564',
      self_assessed_vat: '4452',
      fees: '627',
      suspense: '471',
      first_closing_date: null,
    });
    const saved = await session.rest('PUT', '/api/exports/accounts', {
      ...defaults.body,
      services: '706100',
      vat: '445711',
      vat_on_receipts: '445741',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ messages: 'Mise à jour avec succès', data: { services: '706100', vat: '445711' } });
    const { rows } = await fec(session, `?year=${year}`);
    // The service's VAT waits for its payment, then is due: moved the day it was paid.
    expect(rows.map((r) => [r.JournalCode, r.CompteNum])).toEqual([
      ['VT', '411'],
      ['VT', '706100'],
      ['VT', '445741'],
      ['BQ', '512'],
      ['BQ', '411'],
      ['OD', '445741'],
      ['OD', '445711'],
    ]);

    const bad = await session.rest('PUT', '/api/exports/accounts', { ...defaults.body, bank: '51 2x' });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toBe('Banque : un numéro de compte de 3 à 12 chiffres (ex. 512)');
    expect((await session.rest('GET', '/api/exports/accounts')).body.bank).toBe('512');
  });

  it('a year without documents gives the header line alone; another organisation’s documents never appear', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await issued(session, { customer_id: customerId, date: today, items: [line('Conseil', 1, 100, 20)] });
    const empty = await fec(session, `?year=${year - 3}`);
    expect(empty.response.status).toBe(200);
    expect(empty.text).toBe(`${FEC_FIELDS.join('\t')}\r\n`);

    const { session: other } = await registered(server.url);
    await other.rest('PUT', '/api/organization', { ...sellerIdentity, siret: '732 829 320' });
    const theirs = await fec(other, `?year=${year}`);
    expect(theirs.rows).toEqual([]);
    expect(theirs.response.headers.get('content-disposition')).toContain('filename="732829320FEC');
  });

  it('books a document in another currency in euros at its rate, its own amount in Montantdevise and Idevise', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    expect((await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1.085' })).status).toBe(201);
    const invoice = await issued(session, {
      customer_id: customerId,
      date: today,
      currency: 'USD',
      items: [line('Consulting', 1, 1000, 20)],
    });
    expect(invoice).toMatchObject({ currency: 'USD', total: 1200 });
    const { rows } = await fec(session, `?year=${year}`);
    // 1 200 USD / 1.085 = 1 105,99 €; 1 000 USD = 921,66 €; 200 USD = 184,33 €: the entry still balances to the cent.
    expect(rows.map((r) => [r.CompteNum, r.Debit, r.Credit, r.Montantdevise, r.Idevise])).toEqual([
      ['411', '1105,99', '0,00', '1200,00', 'USD'],
      ['706', '0,00', '921,66', '1000,00', 'USD'],
      // A service on VAT on receipts, unpaid: its VAT waits on 44574.
      ['44574', '0,00', '184,33', '200,00', 'USD'],
    ]);
  });

  it('keeps booking a USD invoice and its payment at the rate of issue after the rate changed in Paramètres → Devises', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const usd = await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1.085' });
    expect(usd.status).toBe(201);
    const invoice = await issued(session, {
      customer_id: customerId,
      date: today,
      currency: 'USD',
      items: [line('Consulting', 1, 1000, 20)],
    });
    expect((await session.rest('PUT', `/api/currencies/${usd.body.data.id}`, { code: 'USD', rate: '1.2' })).status).toBe(200);
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 1200 })).status).toBe(201);
    const { rows } = await fec(session, `?year=${year}`);
    // Still 1 200 USD / 1,085 = 1 105,99 € (at 1,2 it would be 1 000,00 €); the payment clears 411 at that rate too.
    expect(rows.map((r) => [r.JournalCode, r.CompteNum, r.Debit, r.Credit, r.Montantdevise])).toEqual([
      ['VT', '411', '1105,99', '0,00', '1200,00'],
      ['VT', '706', '0,00', '921,66', '1000,00'],
      ['VT', '44574', '0,00', '184,33', '200,00'],
      ['BQ', '512', '1105,99', '0,00', '1200,00'],
      ['BQ', '411', '0,00', '1105,99', '1200,00'],
      // Paid in full: the VAT the return makes due, in euros at the rate of issue, moved to 44571.
      ['OD', '44574', '184,33', '0,00', ''],
      ['OD', '44571', '0,00', '184,33', ''],
    ]);
    expect(net(rows, '411')).toBe(0);
  });

  it('the tRPC door answers the same file as { filename, content }', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await issued(session, { customer_id: customerId, date: today, items: [line('Conseil', 1, 100, 20)] });
    const file = await session.trpc().exports.fec.query({ year });
    expect(file.filename).toBe(`552032534FEC${year}1231.txt`);
    expect(file.content).toBe((await fec(session, `?year=${year}`)).text);
  });

  it.each([
    ['?year=abc', 400, 'Année : un nombre entier entre 2000 et 2100 est attendu (ex. 2026)'],
    ['?year=1999', 400, 'Année : un nombre entier entre 2000 et 2100 est attendu (ex. 2026)'],
    ['?year=2026.5', 400, 'Année : un nombre entier entre 2000 et 2100 est attendu (ex. 2026)'],
    ['', 400, 'Année : un nombre entier entre 2000 et 2100 est attendu (ex. 2026)'],
    ['?year=2026&journal=VT', 400, null],
  ])('GET /api/exports/fec%s → %i with a French message', async (query, status, message) => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const answer = await session.rest('GET', `/api/exports/fec${query}`);
    expect(answer.status).toBe(status);
    if (message) expect(answer.body.messages).toBe(message);
    else expect(String(answer.body.messages)).toMatch(/journal/);
  });

  it('refuses without a SIREN (the file is named after it), and without a session', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('GET', `/api/exports/fec?year=${year}`);
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toBe(
      'Renseignez le SIREN ou le SIRET de l’entreprise (Paramètres → Infos de l’entreprise) : le FEC porte son nom',
    );
    const anonymous = await new (session.constructor as typeof Session)(server.url).rest('GET', `/api/exports/fec?year=${year}`);
    expect(anonymous.status).toBe(401);
  });
});
