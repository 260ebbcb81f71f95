import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { base64, camt053, type GeneratedEntry } from '../helpers/bank-statements';
import { todayIso } from '../../src/server/services/document-record';

const IBAN = 'FR7630001007941234567890185';
const OTHER_IBAN = 'FR1420041010050500013M02606';

type Invoice = { id: number; number: string; total: number; customer_name: string; maturity: string | null };

async function account(session: Session, body: Record<string, unknown> = {}) {
  const answer = await session.rest('POST', '/api/bank-accounts', {
    name: 'Compte courant',
    iban: 'fr76 3000 1007 9412 3456 7890 185',
    bic: 'bdfefrpp',
    ...body,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data as { id: number; iban: string; bic: string; default: boolean };
}

const upload = (session: Session, accountId: number, filename: string, text: string, encoding: BufferEncoding = 'utf8') =>
  session.rest('POST', `/api/bank-accounts/${accountId}/import`, { filename, content_base64: base64(text, encoding) });

const amountText = (n: number) => n.toFixed(2);

describe('bank accounts, statements and matching', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('keeps an account with its IBAN checked, the first one the default; a wrong IBAN is refused, naming it', async () => {
    const { session } = await registered(server.url);
    const bad = await session.rest('POST', '/api/bank-accounts', { name: 'Compte', iban: 'FR7630001007941234567890186' });
    expect(bad.status).toBe(400);
    expect(String(bad.body.messages)).toMatch(/IBAN invalide : la clé de contrôle/);
    const created = await account(session);
    expect(created).toMatchObject({ iban: IBAN, bic: 'BDFEFRPP', default: true });
    const second = await account(session, { name: 'Livret', iban: OTHER_IBAN, bic: '' });
    expect(second.default).toBe(false);
    const twice = await session.rest('POST', '/api/bank-accounts', { name: 'Encore', iban: IBAN });
    expect(twice.status).toBe(400);
    expect(String(twice.body.messages)).toMatch(/« Compte courant » a déjà l’IBAN FR76 3000/);
    const promoted = await session.rest('PUT', `/api/bank-accounts/${second.id}`, { name: 'Livret', iban: OTHER_IBAN, default: true });
    expect(promoted.body.data.default).toBe(true);
    const list = await session.rest('GET', '/api/bank-accounts');
    expect(list.body.data.map((a: { name: string; default: boolean }) => [a.name, a.default])).toEqual([
      ['Livret', true],
      ['Compte courant', false],
    ]);
  });

  it('imports a camt.053 once, suggests and confirms the payments, and never pays twice', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const other = (
      await session.rest('POST', '/api/customers', { ...businessCustomer, name: 'Fromagerie Dubois', business_id: '404 833 048' })
    ).body.data;
    const invoices: Invoice[] = [];
    for (let n = 0; n < 10; n++)
      invoices.push(
        await issued(session, {
          type: 'invoice',
          customer_id: n % 2 && n < 8 ? other.id : customerId,
          items: [line(`Prestation ${n}`, 1, 100 + n * 10)],
        }),
      );
    // Martin: a, c, e, g, i, j; Dubois: b, d, f, h.
    const [i, j] = [invoices[8], invoices[9]] as [Invoice, Invoice];
    const expense = (
      await session.rest('POST', '/api/expenses', {
        date: '2026-11-03',
        supplier: 'Orange Business',
        category: 'telecom',
        label: 'Box',
        amount: '59,99',
        vat: [{ rate: 20, amount: 10 }],
        payment_method: 'transfer',
        status: 'unpaid',
      })
    ).body.data;
    const { id: accountId } = await account(session);
    const [a, b, c, d, e, f, g, h] = invoices as [Invoice, Invoice, Invoice, Invoice, Invoice, Invoice, Invoice, Invoice];
    const entries: GeneratedEntry[] = [
      // By number, in every way a bank writes it.
      { date: '2026-11-10', amount: amountText(a.total), label: `VIR SEPA BOULANGERIE MARTIN FACT ${a.number}` },
      {
        date: '2026-11-10',
        amount: amountText(b.total),
        label: `Règlement facture ${b.number.replace(/-/g, ' ')}`,
        counterparty: 'FROMAGERIE DUBOIS',
      },
      // By the customer's name and the exact amount.
      { date: '2026-11-11', amount: amountText(c.total), label: 'VIREMENT BOULANGERIE MARTIN', counterparty: 'BOULANGERIE MARTIN' },
      // One transfer for two invoices, both numbers in the label.
      { date: '2026-11-12', amount: amountText(d.total + f.total), label: `PAIEMENT ${d.number} ET ${f.number}` },
      // A partial payment.
      { date: '2026-11-13', amount: '50.00', label: `ACOMPTE ${e.number}` },
      // Two invoices of one customer paid together, no number.
      { date: '2026-11-14', amount: amountText(i.total + j.total), label: 'VIR BOULANGERIE MARTIN SOLDE' },
      // The supplier's debit.
      { date: '2026-11-15', amount: '-59.99', label: 'PRLV SEPA ORANGE BUSINESS', counterparty: 'ORANGE BUSINESS' },
      // Unrelated.
      { date: '2026-11-15', amount: '-12.40', label: 'CB BOULANGERIE DU COIN' },
      { date: '2026-11-16', amount: amountText(h.total), label: 'VIR FROMAGERIE DUBOIS', counterparty: 'FROMAGERIE DUBOIS' },
      // A cheque deposit of several invoices, matched by hand.
      { date: '2026-11-17', amount: '500.00', label: 'REMISE CHEQUES 0004512' },
    ];
    const xml = camt053(IBAN, entries);
    const first = await upload(session, accountId, 'releve-novembre.xml', xml);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ format: 'camt.053', imported: 10, duplicates: 0, rejected: [] });
    expect(first.body.messages).toBe('10 opérations importées');
    // The same file again, then one overlapping it: nothing twice.
    const again = await upload(session, accountId, 'releve-novembre.xml', xml);
    expect(again.body.data).toMatchObject({ imported: 0, duplicates: 10 });
    const overlapping = camt053(IBAN, [
      ...entries.slice(6),
      { date: '2026-11-20', amount: '-5.00', label: 'FRAIS TENUE DE COMPTE', bankId: 'REF-NEW' },
    ]);
    const overlap = await upload(session, accountId, 'releve-fin.xml', overlapping.replace(/REF00000001/, 'REF00000001'));
    expect(overlap.body.data.duplicates).toBe(4);
    expect(overlap.body.data.imported).toBe(1);

    const listed = await session.rest('GET', `/api/bank-transactions?account_id=${accountId}&per_page=50`);
    expect(listed.body.total).toBe(11);
    type Row = {
      id: number;
      label: string;
      suggestions: { id: number; kind: string; confidence: number; reason: string; amount: number }[];
    };
    const rows = listed.body.data as Row[];
    const byLabel = (text: string) => rows.find((r) => r.label.includes(text)) as Row;
    expect(byLabel(`FACT ${a.number}`).suggestions).toMatchObject([
      { kind: 'invoice', id: a.id, reason: `Numéro ${a.number} dans le libellé, montant exact` },
    ]);
    expect(byLabel('VIREMENT BOULANGERIE').suggestions).toMatchObject([{ id: c.id, reason: 'Montant exact et nom du client' }]);
    expect(
      byLabel('PAIEMENT')
        .suggestions.map((s) => s.id)
        .sort(),
    ).toEqual([d.id, f.id].sort());
    expect(byLabel('ACOMPTE').suggestions).toMatchObject([{ id: e.id, amount: 50 }]);
    expect(
      byLabel('SOLDE')
        .suggestions.map((s) => s.id)
        .sort(),
    ).toEqual([i.id, j.id].sort());
    expect(byLabel('ORANGE').suggestions).toMatchObject([{ kind: 'expense', id: expense.id }]);
    expect(byLabel('DU COIN').suggestions).toEqual([]);

    // « Tout valider »: every sure one; the cheque deposit, which names nothing, is left to the user.
    const sure = await session.rest('POST', '/api/bank-transactions/confirm-sure', { account_id: accountId });
    expect(sure.status, JSON.stringify(sure.body)).toBe(200);
    const paid = async (invoice: Invoice) => (await session.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect((await paid(a)).status).toBe('paid');
    expect((await paid(b)).status).toBe('paid');
    expect((await paid(c)).status).toBe('paid');
    expect((await paid(d)).status).toBe('paid');
    expect((await paid(f)).status).toBe('paid');
    expect((await paid(e)).status).toBe(owedStatus(e, 'partial'));
    expect((await paid(i)).status).toBe('paid');
    expect((await paid(j)).status).toBe('paid');
    expect((await paid(h)).status).toBe('paid');
    expect(sure.body.data).toEqual({ confirmed: 8, skipped: 0 });
    const payments = (await session.rest('GET', `/api/documents/${a.id}/payments`)).body.data;
    expect(payments).toMatchObject([{ date: '2026-11-10', amount: a.total, method: 'transfer', note: 'Rapprochement bancaire' }]);
    expect((await session.rest('GET', `/api/expenses/${expense.id}`)).body).toMatchObject({ status: 'paid', paid_at: '2026-11-15' });

    // Paying a confirmed line again, or past an invoice's balance: refused, nothing recorded.
    const matchedA = byLabel(`FACT ${a.number}`);
    const twice = await session.rest('POST', `/api/bank-transactions/${matchedA.id}/match`, {
      matches: [{ kind: 'invoice', id: a.id, amount: 1 }],
    });
    expect(twice.status).toBe(409);
    const cheques = byLabel('REMISE CHEQUES');
    expect(cheques.suggestions).toEqual([]);
    const eLeft = e.total - 50;
    const tooMuch = await session.rest('POST', `/api/bank-transactions/${cheques.id}/match`, {
      matches: [
        { kind: 'invoice', id: e.id, amount: eLeft },
        { kind: 'invoice', id: g.id, amount: g.total },
        { kind: 'invoice', id: b.id, amount: 300 },
      ],
    });
    expect(tooMuch.status).toBe(409);
    expect(String(tooMuch.body.messages)).toMatch(/dépasse ce qui reste de l’opération/);
    expect((await paid(g)).status).toBe(owedStatus(g));
    const overBalance = await session.rest('POST', `/api/bank-transactions/${cheques.id}/match`, {
      matches: [{ kind: 'invoice', id: e.id, amount: e.total }],
    });
    expect(overBalance.status).toBe(409);
    expect(String(overBalance.body.messages)).toMatch(/dépasse le reste à payer/);
    // By hand: two of the cheques; the rest of the deposit stays to match.
    const byHand = await session.rest('POST', `/api/bank-transactions/${cheques.id}/match`, {
      matches: [
        { kind: 'invoice', id: e.id, amount: eLeft },
        { kind: 'invoice', id: g.id, amount: g.total },
      ],
    });
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(200);
    expect(byHand.body.data).toMatchObject({
      status: 'unmatched',
      allocated: eLeft + g.total,
      matches: [{ id: e.id, label: e.number }, { id: g.id }],
    });
    expect((await paid(e)).status).toBe('paid');
    expect((await paid(g)).status).toBe('paid');
    // A debit to ignore, with its reason.
    const coin = byLabel('DU COIN');
    expect((await session.rest('POST', `/api/bank-transactions/${coin.id}/ignore`, { reason: '' })).status).toBe(400);
    expect((await session.rest('POST', `/api/bank-transactions/${coin.id}/ignore`, { reason: 'Dépense personnelle' })).status).toBe(200);
    const ignored = await session.rest('GET', `/api/bank-transactions?account_id=${accountId}&status=ignored`);
    expect(ignored.body.data).toMatchObject([{ id: coin.id, ignore_reason: 'Dépense personnelle' }]);
  });

  it('refuses what is not a statement, a statement of another account, and keeps the good lines of a damaged one', async () => {
    const { session } = await registered(server.url);
    const { id } = await account(session);
    const notAStatement = await upload(session, id, 'photo.txt', 'Bonjour, ceci est une lettre.');
    expect(notAStatement.status).toBe(400);
    expect(String(notAStatement.body.messages)).toMatch(/camt\.053.*OFX.*QIF.*CSV/);
    const invoiceXml = await upload(
      session,
      id,
      'facture.xml',
      '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
    );
    expect(invoiceXml.status).toBe(400);
    const elsewhere = await upload(session, id, 'autre.xml', camt053(OTHER_IBAN, [{ date: '2026-11-02', amount: '10.00', label: 'X' }]));
    expect(elsewhere.status).toBe(400);
    expect(String(elsewhere.body.messages)).toBe(
      'Ce relevé est celui du compte FR14 2004 1010 0505 0001 3M02 606, pas de FR76 3000 1007 9412 3456 7890 185 : importez-le sur le bon compte',
    );
    // The ISO 20022 example statement names its account by the bank's own number: not this one either.
    const example = fs.readFileSync('tests/fixtures/bank/iso20022/business_sample_camt.053.001.04.xml', 'utf8');
    const swedish = await upload(session, id, 'business_sample_camt.053.001.04.xml', example);
    expect(swedish.status).toBe(400);
    expect(String(swedish.body.messages)).toBe(
      'Ce relevé est celui du compte 50000000054910000003, pas de FR76 3000 1007 9412 3456 7890 185 : importez-le sur le bon compte',
    );
    const byNumber = camt053(IBAN, [{ date: '2026-11-01', amount: '1.00', label: 'PAR NUMERO', bankId: 'BBAN-1' }]).replace(
      `<IBAN>${IBAN}</IBAN>`,
      '<Othr><Id>30001 00794 12345678901 85</Id></Othr>',
    );
    expect((await upload(session, id, 'releve-bban.xml', byNumber)).status).toBe(201);
    const damaged = camt053(IBAN, [
      { date: '2026-11-02', amount: '10.00', label: 'BON' },
      { date: '2026-11-03', amount: 'douze', label: 'MAUVAIS' },
      { date: '2026-11-04', amount: '30.00', label: 'EN ATTENTE', status: 'PDNG' },
    ]);
    const partly = await upload(session, id, 'abime.xml', damaged);
    expect(partly.status, JSON.stringify(partly.body)).toBe(201);
    expect(partly.body.data.imported).toBe(1);
    expect(partly.body.data.rejected.map((r: { reason: string }) => r.reason)).toEqual([
      'Montant illisible',
      'Opération non comptabilisée (PDNG) : elle sera importée avec le relevé qui la comptabilise',
    ]);
    const listed = await session.rest('GET', '/api/bank-transactions');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const total = listed.body.total;
    expect(total).toBe(2);
    // Still serving.
    expect((await session.rest('GET', '/api/bank-accounts')).status).toBe(200);
  });

  it('reads a French bank CSV (Windows-1252, decimal commas, debit and credit columns) and an OFX, remembering the CSV columns', async () => {
    const { session } = await registered(server.url);
    const { id } = await account(session);
    const csv = [
      'Compte courant n° 12345678901;;;;',
      'Date;Date de valeur;Libellé;Débit;Crédit',
      '02/11/2026;02/11/2026;VIR M. DUPONT LOYER;;1 250,00',
      '03/11/2026;03/11/2026;CB CAFÉ DE LA GARE;-3,50;',
      '03/11/2026;03/11/2026;CB CAFÉ DE LA GARE;-3,50;',
      '31/11/2026;;DATE IMPOSSIBLE;-1,00;',
    ].join('\r\n');
    // A screen asks for a preview on an account without confirmed columns: the guess; confirming it imports and remembers it.
    const guessed = await session.rest('POST', `/api/bank-accounts/${id}/import`, {
      filename: 'export.csv',
      content_base64: base64(csv, 'latin1'),
      csv_preview: true,
    });
    expect(guessed.status, JSON.stringify(guessed.body)).toBe(200);
    expect(guessed.body.data).toMatchObject({ imported: 0, csv_mapping_required: true });
    const imported = await session.rest('POST', `/api/bank-accounts/${id}/import`, {
      filename: 'export.csv',
      content_base64: base64(csv, 'latin1'),
      csv_mapping: guessed.body.data.csv_preview.mapping,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.data).toMatchObject({
      format: 'csv',
      imported: 3,
      rejected: [{ line: 6, reason: 'Date illisible (« 31/11/2026 »)' }],
    });
    const rows = (await session.rest('GET', `/api/bank-transactions?account_id=${id}`)).body.data as { amount: number; label: string }[];
    expect(rows.map((r) => [r.amount, r.label]).sort()).toEqual(
      [
        [1250, 'VIR M. DUPONT LOYER'],
        [-3.5, 'CB CAFÉ DE LA GARE'],
        [-3.5, 'CB CAFÉ DE LA GARE'],
      ].sort(),
    );
    expect((await upload(session, id, 'export.csv', csv, 'latin1')).body.data).toMatchObject({ imported: 0, duplicates: 3 });

    const ofx = `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
<BANKACCTFROM><BANKID>30001<BRANCHID>00794<ACCTID>12345678901<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20261101<DTEND>20261130
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261105<TRNAMT>-42.10<FITID>OFX-1<NAME>PRLV EDF<MEMO>FACTURE NOVEMBRE</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261106<TRNAMT>300.00<FITID>OFX-2<NAME>VIR CLIENT</STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    const fromOfx = await upload(session, id, 'releve.ofx', ofx);
    expect(fromOfx.status, JSON.stringify(fromOfx.body)).toBe(201);
    expect(fromOfx.body.data).toMatchObject({ format: 'ofx', imported: 2 });
    const wrongOfx = await upload(session, id, 'releve.ofx', ofx.replace('12345678901', '99999999999'));
    expect(wrongOfx.status).toBe(400);
    expect(String(wrongOfx.body.messages)).toMatch(/Ce relevé est celui du compte 30001 00794 99999999999/);
  });
});

describe('the reconciliation of an account (état de rapprochement)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sets the statement’s balance against the books’ and explains the difference line by line', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const { id } = await account(session);
    const none = await session.rest('GET', `/api/bank-accounts/${id}/reconciliation`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ statement: null, book_balance: null, not_in_books: [] });

    const [a, b, c] = [
      await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Audit', 1, 100)] }),
      await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Conseil', 1, 250)] }),
      await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Suivi', 1, 50)] }),
    ] as [Invoice, Invoice, Invoice];
    // Typed by hand and not on the statement yet: a transfer of C, an expense paid by card; and cash, never the bank's.
    expect(
      (await session.rest('POST', `/api/documents/${c.id}/payments`, { date: '2026-11-16', amount: 60, method: 'transfer' })).status,
    ).toBe(201);
    const cashInvoice = await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Dépannage', 1, 10)] });
    expect(
      (await session.rest('POST', `/api/documents/${cashInvoice.id}/payments`, { date: '2026-11-21', amount: 12, method: 'cash' })).status,
    ).toBe(201);
    const expense = await session.rest('POST', '/api/expenses', {
      date: '2026-11-15',
      supplier: 'Papeterie Centrale',
      category: 'fournitures',
      amount: '40,00',
      vat: [{ rate: 20, amount: '6,67' }],
      payment_method: 'card',
      status: 'paid',
      paid_at: '2026-11-15',
    });
    expect(expense.status, JSON.stringify(expense.body)).toBe(201);

    const statement = camt053(
      IBAN,
      [
        { date: '2026-11-10', amount: amountText(a.total), label: `VIR ${a.number}`, counterparty: a.customer_name },
        { date: '2026-11-12', amount: amountText(b.total), label: `VIR ${b.number}`, counterparty: b.customer_name },
        { date: '2026-11-14', amount: '-12.50', label: 'FRAIS TENUE DE COMPTE' },
        { date: '2026-11-18', amount: '75.00', label: 'VIR INCONNU' },
      ],
      '001.02',
      { opening: '1000.00', openingDate: '2026-11-01' },
    );
    const imported = await upload(session, id, 'releve-novembre.xml', statement);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect((await session.rest('POST', '/api/bank-transactions/confirm-sure', { account_id: id })).status).toBe(200);
    const lines = (await session.rest('GET', `/api/bank-transactions?account_id=${id}&per_page=50`)).body.data as {
      id: number;
      label: string;
    }[];
    const fees = lines.find((l) => l.label.includes('FRAIS')) as { id: number };
    expect((await session.rest('POST', `/api/bank-transactions/${fees.id}/ignore`, { reason: 'Frais bancaires' })).status).toBe(200);

    const answer = await session.rest('GET', `/api/bank-accounts/${id}/reconciliation`);
    expect(answer.status).toBe(200);
    const r = answer.body;
    // 1000 + 120 + 300 − 12.50 + 75 on the statement; the books: 1000 + 120 + 300 + 60 − 40.
    expect(r.statement).toEqual({ date: '2026-11-18', balance: 1482.5 });
    expect(r.opening).toEqual({ date: '2026-11-10', balance: 1000 });
    expect(r.book_balance).toBe(1440);
    expect(r.difference).toBe(42.5);
    expect(r.not_in_books.map((l: { date: string; amount: number; reason: string }) => [l.date, l.amount, l.reason])).toEqual([
      ['2026-11-14', -12.5, 'Ignorée : Frais bancaires'],
      ['2026-11-18', 75, 'À rapprocher'],
    ]);
    expect(r.not_on_statement.map((m: { kind: string; date: string; amount: number }) => [m.kind, m.date, m.amount])).toEqual([
      ['expense', '2026-11-15', -40],
      ['invoice', '2026-11-16', 60],
    ]);
    // The explanation adds up to the difference.
    const explained =
      r.not_in_books.reduce((s: number, l: { amount: number }) => s + l.amount * 100, 0) -
      r.not_on_statement.reduce((s: number, m: { amount: number }) => s + m.amount * 100, 0);
    expect(Math.round(explained)).toBe(Math.round(r.difference * 100));

    // An older statement imported afterwards never replaces the newer balance.
    const october = camt053(IBAN, [{ date: '2026-10-20', amount: '10.00', label: 'VIR OCTOBRE', bankId: 'OCT-1' }], '001.02', {
      opening: '990.00',
      openingDate: '2026-10-01',
    });
    expect((await upload(session, id, 'releve-octobre.xml', october)).status).toBe(201);
    const after = (await session.rest('GET', `/api/bank-accounts/${id}`)).body;
    expect([after.statement_balance, after.statement_balance_date]).toEqual([1482.5, '2026-11-18']);
  });
});

describe('the dashboard’s money in and out this month', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('reads the payments typed until a statement is imported, then the bank’s confirmed lines and its stated balance', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // The first of this month in Paris, when the server counts its month from.
    const first = `${todayIso().slice(0, 7)}-01`;
    const a = await issued(session, { customer_id: customerId, date: first, items: [line('Audit', 1, 100)] });
    const b = await issued(session, { customer_id: customerId, date: first, items: [line('Conseil', 1, 250)] });
    expect((await session.rest('POST', `/api/documents/${a.id}/payments`, { date: first, amount: 20, method: 'check' })).status).toBe(201);
    const typed = (await session.rest('GET', '/api/dashboard')).body.cash;
    expect(typed).toEqual({ source: 'payments', received_month: 20, paid_month: 0, balance: null, balance_date: null });

    const { id } = await account(session);
    const statement = camt053(
      IBAN,
      [
        { date: first, amount: amountText(b.total), label: `VIR ${b.number}` },
        { date: first, amount: '-9.90', label: 'FRAIS' },
      ],
      '001.02',
      { opening: '500.00', openingDate: first },
    );
    expect((await upload(session, id, 'releve.xml', statement)).status).toBe(201);
    expect((await session.rest('POST', '/api/bank-transactions/confirm-sure', { account_id: id })).status).toBe(200);
    // The bank is the source now: the cheque typed by hand is not on it, the transfer it confirmed is.
    const bank = (await session.rest('GET', '/api/dashboard')).body.cash;
    expect(b.total).toBe(300);
    expect(bank).toEqual({ source: 'bank', received_month: 300, paid_month: 0, balance: 790.1, balance_date: first });
  });
});
