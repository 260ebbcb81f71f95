import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { base64, camt053 } from '../helpers/bank-statements';
import { FEC_FIELDS } from '../../src/shared/fec/format';
import { checkFec } from '../../src/shared/fec/check';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = Number(today.slice(0, 4));
const IBAN = 'FR7630001007941234567890185';

type Row = Record<(typeof FEC_FIELDS)[number], string>;

async function fec(session: Session, query: string) {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec${query}`);
  const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
  const rows: Row[] = text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => Object.fromEntries(FEC_FIELDS.map((f, i) => [f, l.split('\t')[i] ?? ''])) as Row);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
  return { response, text, rows, filename };
}

const cents = (amount: string) => Number(amount.replace(',', ''));
const net = (rows: Row[], account: string) =>
  rows.filter((r) => r.CompteNum === account).reduce((a, r) => a + cents(r.Debit) - cents(r.Credit), 0);

describe('a complete FEC: sales, purchases, bank, miscellaneous', () => {
  it('books expenses in AC (401 per supplier, 6xx by category, 44566), bank lines on the account’s 512 sub-account, and passes the structural checks', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, date: today, items: [line('Conseil', 1, 1000, 20)] });
    // A French supplier's expense, paid by hand; a Dutch one whose VAT is not deductible, left unpaid.
    const french = await session.rest('POST', '/api/expenses', {
      date: today,
      supplier: 'Papeterie Martin',
      supplier_siren: '732829320',
      category: 'fournitures',
      invoice_number: 'PM-77',
      amount: 120,
      vat: [{ rate: 20, amount: 20 }],
      status: 'paid',
      paid_at: today,
    });
    expect(french.status, JSON.stringify(french.body)).toBe(201);
    const dutch = await session.rest('POST', '/api/expenses', {
      date: today,
      supplier: 'De Koksmaat',
      supplier_vat_number: 'NL820098395B01',
      supplier_country: 'NL',
      category: 'autres',
      invoice_number: '12115118',
      amount: 121,
      vat: [{ rate: 21, amount: 21, deductible: false }],
      status: 'unpaid',
    });
    expect(dutch.status, JSON.stringify(dutch.body)).toBe(201);
    expect(dutch.body.data.vat_note).toMatch(/^TVA étrangère \(Pays-Bas\)/);

    // The bank: a credit that pays the invoice, a debit that pays the Dutch expense, a fee nobody matched.
    const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data;
    const statement = camt053(IBAN, [
      { date: today, amount: invoice.total.toFixed(2), label: `VIR ${invoice.number}`, bankId: 'B1' },
      { date: today, amount: '-121.00', label: 'VIR DE KOKSMAAT 12115118', bankId: 'B2' },
      { date: today, amount: '-4.90', label: 'FRAIS TENUE DE COMPTE', bankId: 'B3' },
    ]);
    const imported = await session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
      filename: 'releve.xml',
      content_base64: base64(statement),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const lines = (await session.rest('GET', `/api/bank-transactions?account_id=${account.id}`)).body.data as {
      id: number;
      amount: number;
    }[];
    const credit = lines.find((l) => l.amount > 0);
    const debit = lines.find((l) => l.amount === -121);
    expect(
      (
        await session.rest('POST', `/api/bank-transactions/${credit?.id}/match`, {
          matches: [{ kind: 'invoice', id: invoice.id, amount: invoice.total }],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await session.rest('POST', `/api/bank-transactions/${debit?.id}/match`, {
          matches: [{ kind: 'expense', id: dutch.body.data.id, amount: 121 }],
        })
      ).status,
    ).toBe(200);

    const { response, text, rows, filename } = await fec(session, `?year=${year}`);
    expect(response.status).toBe(200);
    expect(filename).toBe(`552032534FEC${year}1231.txt`);
    expect(checkFec(text, { closingDate: `${year}-12-31`, openingDate: `${year}-01-01`, siren: '552032534', filename })).toEqual([]);
    // OD: the service's VAT, paid through the bank line, moved from 44574 to 44571 that day.
    expect(new Set(rows.map((r) => r.JournalCode))).toEqual(new Set(['VT', 'AC', 'BQ', 'OD']));
    expect(net(rows, '44574')).toBe(0);
    expect(rows.filter((r) => r.JournalCode === 'OD').map((r) => [r.CompteNum, r.PieceRef])).toEqual([
      ['44574', invoice.number],
      ['44571', invoice.number],
    ]);

    // Purchases: 401 per supplier, deductible French VAT on 44566, the Dutch VAT kept in the charge.
    const purchases = rows.filter((r) => r.JournalCode === 'AC');
    expect(new Set(purchases.filter((r) => r.CompteNum === '401').map((r) => `${r.CompAuxNum} ${r.CompAuxLib}`))).toEqual(
      new Set(['F732829320 Papeterie Martin', 'FNL820098395B01 De Koksmaat']),
    );
    expect(net(purchases, '44566')).toBe(2000);
    expect(rows.every((r) => r.JournalLib === { VT: 'Ventes', AC: 'Achats', BQ: 'Banque', OD: 'Opérations diverses' }[r.JournalCode])).toBe(
      true,
    );
    // Bank: the sub-account moves as the statement does; the invoice and both expenses are cleared; the fee waits on 471.
    expect(net(rows, '51201')).toBe(Math.round(invoice.total * 100) - 12100 - 490);
    expect(rows.filter((r) => r.CompteNum === '51201').every((r) => r.CompteLib === 'Banque Compte courant')).toBe(true);
    expect(net(rows, '411')).toBe(0);
    expect(net(rows, '401')).toBe(0);
    expect(net(rows, '471')).toBe(490);
    expect(net(rows, '512')).toBe(-12000);
  });

  it('a fiscal year closing on 30 June: the file is named after that date; a year before the first closing is refused', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const accounts = (await session.rest('GET', '/api/exports/accounts')).body;
    expect(accounts.first_closing_date).toBeNull();
    const saved = await session.rest('PUT', '/api/exports/accounts', { ...accounts, first_closing_date: `${year}-06-30` });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const next = await fec(session, `?year=${year + 1}`);
    expect(next.response.status).toBe(200);
    expect(next.filename).toBe(`552032534FEC${year + 1}0630.txt`);
    const before = await session.rest('GET', `/api/exports/fec?year=${year - 1}`);
    expect(before.status).toBe(409);
    expect(before.body.messages).toBe(
      `Aucun exercice ne se clôt en ${year - 1} : le premier exercice se clôt le 30/06/${year} (Paramètres → Comptabilité)`,
    );
    const bad = await session.rest('PUT', '/api/exports/accounts', { ...accounts, first_closing_date: '30/06/2026' });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toBe('Date de clôture du premier exercice : date attendue au format AAAA-MM-JJ');
  });
});
