import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, readyToInvoice } from '../helpers/documents';
import { base64, camt053, type GeneratedEntry } from '../helpers/bank-statements';
import { isValidSiren } from '../../src/shared/identifiers';
import { FEC_FIELDS } from '../../src/shared/fec/format';
import { checkFec } from '../../src/shared/fec/check';

const IBAN = 'FR7630001007941234567890185';

/** Last month in Paris: every line of its statement is in the past, whatever day the test runs. */
function lastMonth(): { month: string; year: number } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
  const [year, month] = today.split('-').map(Number) as [number, number];
  const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
  return { month: `${previous.year}-${String(previous.month).padStart(2, '0')}`, year: previous.year };
}

/** A valid SIREN (Luhn) from eight digits. */
function siren(base: string): string {
  for (let check = 0; check < 10; check++) if (isValidSiren(`${base}${check}`)) return `${base}${check}`;
  throw new Error(base);
}

type Invoice = { id: number; number: string; total: number; customer: { name: string }; payment_reference: string | null };
type Line = { id: number; date: string; amount: number; label: string; status: string; allocated?: number };
type FecRow = Record<(typeof FEC_FIELDS)[number], string>;

const cents = (euros: number) => Math.round(euros * 100);
const amountText = (euros: number) => (cents(euros) / 100).toFixed(2);

async function fec(session: Session, year: number) {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec?year=${year}`);
  expect(response.status).toBe(200);
  const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
  const rows = text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => Object.fromEntries(FEC_FIELDS.map((f, i) => [f, l.split('\t')[i] ?? ''])) as FecRow);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
  return { text, rows, filename };
}
const fecCents = (amount: string) => Math.round(Number(amount.replace(',', '.')) * 100);
const net = (rows: FecRow[]) => rows.reduce((sum, r) => sum + fecCents(r.Debit) - fecCents(r.Credit), 0);

describe('a month of payments from its camt.053 statement', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('imported twice keeps each line once, confirms 95 % of the payments without a hand choice, pays nothing twice, and its BQ journal moves as the statement', async () => {
    const { month, year } = lastMonth();
    const day = (d: number) => `${month}-${String(d).padStart(2, '0')}`;
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN, bic: 'BDFEFRPP' })).body
      .data as { id: number };
    const names = ['Fromagerie Dubois', 'Garage Lefèvre', 'Pharmacie du Port', 'Librairie Moreau', 'Cabinet Girard', 'Hôtel des Arts'];
    const customers = [customerId];
    for (const [n, name] of names.entries()) {
      const created = await session.rest('POST', '/api/customers', { ...businessCustomer, name, business_id: siren(`4048330${n + 1}`) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      customers.push(created.body.data.id);
    }
    const invoices: Invoice[] = [];
    for (let n = 0; n < 40; n++)
      invoices.push(
        await issued(session, {
          type: 'invoice',
          date: day(1),
          customer_id: customers[n % customers.length],
          items: [line(`Prestation ${n}`, 1, 100 + n * 7.35)],
        }),
      );
    const inv = (n: number) => invoices[n] as Invoice;
    const upper = (invoice: Invoice) => invoice.customer.name.toUpperCase();

    // How the month's 40 payments reach the bank: 38 name their invoice one way or another, 2 come as one cheque deposit.
    const entries: GeneratedEntry[] = [];
    const pay = (d: number, amount: number, label: string, extra: Partial<GeneratedEntry> = {}) =>
      entries.push({ date: day(d), amount: amountText(amount), label, ...extra });
    const numberForms = [
      (i: Invoice) => `VIR SEPA ${upper(i)} FACT ${i.number}`,
      (i: Invoice) => `Règlement facture ${i.number.replace(/-/g, ' ')}`,
      (i: Invoice) => `/INV/${i.number} ${upper(i)}`,
      (i: Invoice) => `PAIEMENT ${i.number.toLowerCase()}`,
    ];
    for (let n = 0; n < 12; n++) pay(2 + n, inv(n).total, (numberForms[n % numberForms.length] as (i: Invoice) => string)(inv(n)));
    // The RF creditor reference, as the EPC QR code hands it to the payer's bank.
    for (let n = 12; n < 22; n++) {
      expect(inv(n).payment_reference).toMatch(/^RF\d{2}/);
      pay(3 + (n % 20), inv(n).total, `VIREMENT ${upper(inv(n))}`, { reference: inv(n).payment_reference ?? '' });
    }
    // The customer's name and the exact amount.
    for (let n = 22; n < 32; n++) pay(4 + (n % 20), inv(n).total, `VIR ${upper(inv(n))}`, { counterparty: upper(inv(n)) });
    // Two invoices of one customer in one transfer naming neither (32 and 39 are both the 5th customer's).
    expect(inv(39).customer.name).toBe(inv(32).customer.name);
    pay(20, inv(32).total + inv(39).total, `VIR ${upper(inv(32))} SOLDE`, { counterparty: upper(inv(32)) });
    // One transfer naming two numbers.
    pay(21, inv(33).total + inv(34).total, `PAIEMENT ${inv(33).number} ET ${inv(34).number}`);
    pay(22, inv(35).total, `VIR ${inv(35).number}`);
    // A cheque deposit of 36 and 37 that names nothing: the user's choice.
    pay(24, inv(36).total + inv(37).total, 'REMISE CHEQUES 0004512');
    // Into 38, two partial transfers naming it.
    pay(25, 100, `ACOMPTE ${inv(38).number}`);
    pay(26, inv(38).total - 100, `SOLDE ${inv(38).number}`);
    const statement = camt053(IBAN, entries, '001.02', { opening: '1000.00', openingDate: day(1) });

    const upload = () =>
      session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
        filename: `releve-${month}.xml`,
        content_base64: base64(statement),
      });
    const first = await upload();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ format: 'camt.053', imported: entries.length, duplicates: 0, rejected: [] });
    const second = await upload();
    expect(second.body.data).toMatchObject({ imported: 0, duplicates: entries.length });
    const listed = async () =>
      (await session.rest('GET', `/api/bank-transactions?account_id=${account.id}&per_page=100`)).body as { total: number; data: Line[] };
    expect((await listed()).total).toBe(entries.length);
    // The list's dates and pages.
    const inRange = entries.filter((e) => e.date >= day(20) && e.date <= day(22));
    const ranged = await session.rest(
      'GET',
      `/api/bank-transactions?account_id=${account.id}&from=${day(20)}&to=${day(22)}&per_page=2&page=2`,
    );
    expect(inRange.length).toBeGreaterThan(3);
    expect(ranged.body.total).toBe(inRange.length);
    expect((ranged.body.data as Line[]).map((l) => l.date).every((d) => d >= day(20) && d <= day(22))).toBe(true);
    expect(ranged.body.data).toHaveLength(2);

    // « Tout valider », no hand choice.
    const sure = await session.rest('POST', '/api/bank-transactions/confirm-sure', { account_id: account.id });
    expect(sure.status, JSON.stringify(sure.body)).toBe(200);
    const statusOf = async (invoice: Invoice) => (await session.rest('GET', `/api/documents/${invoice.id}`)).body.status as string;
    const paidWithoutHand: string[] = [];
    for (const invoice of invoices) if ((await statusOf(invoice)) === 'paid') paidWithoutHand.push(invoice.number);
    expect(paidWithoutHand.length / invoices.length).toBeGreaterThanOrEqual(0.95);
    expect(invoices.map((i) => i.number).filter((n) => !paidWithoutHand.includes(n))).toEqual([inv(36).number, inv(37).number]);

    // The cheque deposit by hand.
    const lines = (await listed()).data;
    const cheques = lines.find((l) => l.label.includes('REMISE CHEQUES')) as Line;
    const byHand = await session.rest('POST', `/api/bank-transactions/${cheques.id}/match`, {
      matches: [
        { kind: 'invoice', id: inv(36).id, amount: inv(36).total },
        { kind: 'invoice', id: inv(37).id, amount: inv(37).total },
      ],
    });
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(200);

    // The month's end again, in a statement that overlaps the first: the customer of invoice 0 sent its transfer a
    // second time, and the bank took its fee.
    const overlapping: GeneratedEntry[] = [
      ...entries.slice(-3),
      { date: day(27), amount: amountText(inv(0).total), label: `VIR SEPA ${upper(inv(0))} FACT ${inv(0).number}`, bankId: 'DUP-1' },
      { date: day(28), amount: '-4.90', label: 'FRAIS TENUE DE COMPTE', bankId: 'FEE-1' },
    ];
    const closingEntries = [...entries, ...overlapping.slice(-2)];
    const movement = closingEntries.reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 0);
    const before = entries.slice(0, -3).reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 100_000);
    const end = camt053(IBAN, overlapping, '001.02', { opening: (before / 100).toFixed(2), openingDate: day(23) });
    const endImport = await session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
      filename: 'releve-fin.xml',
      content_base64: base64(end),
    });
    expect(endImport.body.data).toMatchObject({ imported: 2, duplicates: 3 });

    // Nothing paid twice: each invoice holds its total exactly, the duplicate transfer paid nothing, and neither
    // another « Tout valider », another import nor a hand match can pay again.
    for (const invoice of invoices) {
      const payments = (await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data as { amount: number; date: string }[];
      expect(cents(payments.reduce((sum, p) => sum + p.amount, 0)), invoice.number).toBe(cents(invoice.total));
    }
    const after = (await listed()).data;
    const duplicate = after.find((l) => l.date === day(27)) as Line;
    expect(duplicate.status).not.toBe('matched');
    expect(after.filter((l) => l.status === 'matched')).toHaveLength(entries.length);
    expect((await session.rest('POST', '/api/bank-transactions/confirm-sure', { account_id: account.id })).body.data.confirmed).toBe(0);
    expect((await upload()).body.data).toMatchObject({ imported: 0, duplicates: entries.length });
    const again = await session.rest('POST', `/api/bank-transactions/${duplicate.id}/match`, {
      matches: [{ kind: 'invoice', id: inv(0).id, amount: inv(0).total }],
    });
    expect(again.status).toBe(409);
    // Each confirmed payment is dated by its line, logged in the audit chain, and the services invoice is « Encaissée ».
    const firstPayments = (await session.rest('GET', `/api/documents/${inv(0).id}/payments`)).body.data;
    expect(firstPayments).toMatchObject([{ date: day(2), note: 'Rapprochement bancaire' }]);
    const audit: { event: string }[] = [];
    for (let page = 1; page === 1 || audit.length % 100 === 0; page++) {
      const answer = (await session.rest('GET', `/api/audit?per_page=100&page=${page}`)).body as { data: { event: string }[] };
      if (answer.data.length === 0) break;
      audit.push(...answer.data);
    }
    // 32 lines naming one invoice, 2 lines of two, the cheque deposit's two, the two parts of the 39th.
    expect(audit.filter((e) => e.event === 'payment')).toHaveLength(41);
    expect((await session.rest('GET', '/api/audit/verify')).body.ok).toBe(true);
    const lifecycle = (await session.rest('GET', `/api/documents/${inv(38).id}/lifecycle`)).body.data;
    expect(lifecycle).toMatchObject([{ code: 212, label: 'Encaissée', date: day(26), source: 'automatic' }]);

    // The FEC's bank journal: balanced, and the account's 512 moves exactly as the statement (closing − opening).
    const { text, rows, filename } = await fec(session, year);
    expect(checkFec(text, { closingDate: `${year}-12-31`, openingDate: `${year}-01-01`, siren: '552032534', filename })).toEqual([]);
    const bank = rows.filter((r) => r.JournalCode === 'BQ');
    expect(net(bank)).toBe(0);
    expect(net(bank.filter((r) => r.CompteNum === '51201'))).toBe(movement);
    // What no document explains waits on 471: the duplicate transfer and the fee.
    expect(net(bank.filter((r) => r.CompteNum === '471'))).toBe(-(cents(inv(0).total) - 490));
    const reconciliation = (await session.rest('GET', `/api/bank-accounts/${account.id}/reconciliation`)).body;
    expect(cents(reconciliation.statement.balance)).toBe(100_000 + movement);
    // The account whose lines paid the month stays: the payments point at them.
    const removal = await session.rest('DELETE', `/api/bank-accounts/${account.id}`);
    expect(removal.status).toBe(409);
    expect(removal.body.messages).toBe(
      'Le compte « Compte courant » a des opérations rapprochées de paiements : il ne peut pas être supprimé',
    );
  });

  it('another organisation’s account and lines are unknown: 404 on every bank path, never listed', async () => {
    const owner = (await registered(server.url)).session;
    const account = (await owner.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data as { id: number };
    const statement = camt053(IBAN, [{ date: '2026-11-02', amount: '10.00', label: 'VIR X' }]);
    expect(
      (await owner.rest('POST', `/api/bank-accounts/${account.id}/import`, { filename: 'r.xml', content_base64: base64(statement) }))
        .status,
    ).toBe(201);
    const line = (await owner.rest('GET', '/api/bank-transactions')).body.data[0] as Line;

    const other = (await registered(server.url)).session;
    const answers = [
      await other.rest('GET', `/api/bank-accounts/${account.id}`),
      await other.rest('PUT', `/api/bank-accounts/${account.id}`, { name: 'Pris', iban: IBAN }),
      await other.rest('DELETE', `/api/bank-accounts/${account.id}`),
      await other.rest('POST', `/api/bank-accounts/${account.id}/import`, { filename: 'r.xml', content_base64: base64(statement) }),
      await other.rest('GET', `/api/bank-accounts/${account.id}/reconciliation`),
      await other.rest('POST', `/api/bank-transactions/${line.id}/match`, { matches: [{ kind: 'invoice', id: 1, amount: 1 }] }),
      await other.rest('POST', `/api/bank-transactions/${line.id}/ignore`, { reason: 'Pas à moi' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect((await other.rest('GET', '/api/bank-accounts')).body.total).toBe(0);
    expect((await other.rest('GET', '/api/bank-transactions')).body.total).toBe(0);
    expect((await owner.rest('GET', `/api/bank-accounts/${account.id}`)).body.name).toBe('Compte courant');
    expect((await owner.rest('GET', '/api/bank-transactions')).body.data[0]).toMatchObject({ id: line.id, status: 'unmatched' });
    // Its owner deletes it with its unmatched lines; the other account becomes the default.
    const savings = (await owner.rest('POST', '/api/bank-accounts', { name: 'Livret', iban: 'FR1420041010050500013M02606' })).body.data;
    expect((await owner.rest('DELETE', `/api/bank-accounts/${account.id}`)).status).toBe(200);
    expect((await owner.rest('GET', '/api/bank-accounts')).body.data).toMatchObject([{ id: savings.id, default: true }]);
    expect((await owner.rest('GET', '/api/bank-transactions')).body.total).toBe(0);
  });
});
