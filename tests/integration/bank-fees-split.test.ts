import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { base64, camt053, type GeneratedEntry } from '../helpers/bank-statements';
import { FEC_FIELDS } from '../../src/shared/fec/format';
import { checkFec } from '../../src/shared/fec/check';

/** A credit net of a processor's fee, a line split across several documents, and what is refused on the way. */

const IBAN = 'FR7630001007941234567890185';
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = today.slice(0, 4);

type Line = {
  id: number;
  amount: number;
  label: string;
  status: string;
  allocated: number;
  suggestions: { kind: string; id: number; amount: number; fee: number; reason: string; confidence: number }[];
  matches: { kind: string; id: number; amount: number; fee: number }[];
};
type Row = Record<(typeof FEC_FIELDS)[number], string>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function withStatement(session: Session, entries: GeneratedEntry[], opening?: string) {
  const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data;
  const imported = await session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
    filename: 'releve.xml',
    content_base64: base64(camt053(IBAN, entries, '001.02', opening ? { opening, openingDate: today } : undefined)),
  });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  const lines = async () =>
    ((await session.rest('GET', `/api/bank-transactions?account_id=${account.id}&per_page=100`)).body.data as Line[]).sort(
      (a, b) => a.id - b.id,
    );
  return { accountId: account.id as number, lines };
}

async function fecRows(session: Session): Promise<{ text: string; rows: Row[]; filename: string }> {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec?year=${year}`);
  const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
  const rows = text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => Object.fromEntries(FEC_FIELDS.map((f, i) => [f, l.split('\t')[i] ?? ''])) as Row);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
  return { text, rows, filename };
}
const cents = (amount: string) => Number(amount.replace(',', ''));
const net = (rows: Row[], account: string) =>
  rows.filter((r) => r.CompteNum === account).reduce((a, r) => a + cents(r.Debit) - cents(r.Credit), 0);

describe('bank lines net of a fee', () => {
  it('suggests the invoice a card payout pays less its fee, records the full payment with the fee, and books it to 627', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 120.00 each (100 + 20 % VAT).
    const named = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Audit', 1, 100)] });
    const alone = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Conseil', 1, 250)] });
    const far = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Formation', 1, 1000)] });
    expect([named.total, alone.total, far.total]).toEqual([120, 300, 1200]);
    const { lines } = await withStatement(
      session,
      [
        // Stripe's payout naming the invoice: 120 less 1.45.
        { date: today, amount: '118.55', label: `STRIPE PAYOUT ${named.number}` },
        // SumUp's, no number: the one open invoice whose balance less a plausible fee it is (300 less 5.25, under 9.50).
        { date: today, amount: '294.75', label: 'SUMUP PAYMENTS LIMITED' },
        // A gap far over the rule (1200 less 100): not a fee.
        { date: today, amount: '1100.00', label: 'STRIPE PAYOUT' },
      ],
      '0.00',
    );
    const [payout, sumup, tooFar] = (await lines()) as [Line, Line, Line];
    expect(payout.status).toBe('suggested');
    expect(payout.suggestions).toEqual([
      expect.objectContaining({
        kind: 'invoice',
        id: named.id,
        amount: 120,
        fee: 1.45,
        confidence: 0.95,
        reason: `Numéro ${named.number} dans le libellé. Montant net de frais de 1,45\u00a0€ (STRIPE)`,
      }),
    ]);
    expect(sumup.suggestions).toEqual([
      expect.objectContaining({
        id: alone.id,
        amount: 300,
        fee: 5.25,
        confidence: 0.75,
        reason: 'Seule facture ouverte de ce montant. Montant net de frais de 5,25\u00a0€ (SUMUP)',
      }),
    ]);
    expect(tooFar.suggestions).toEqual([]);

    // The sure one is confirmed by « Tout valider »; the other by hand, with its fee.
    const sure = await session.rest('POST', '/api/bank-transactions/confirm-sure', {});
    expect(sure.body.data).toEqual({ confirmed: 1, skipped: 0 });
    const suggestion = sumup.suggestions[0] as Line['suggestions'][number];
    const confirmed = await session.rest('POST', `/api/bank-transactions/${sumup.id}/match`, {
      matches: [{ kind: 'invoice', id: alone.id, amount: suggestion.amount, fee: '5,25' }],
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      status: 'matched',
      allocated: 294.75,
      matches: [{ id: alone.id, amount: 294.75, fee: 5.25 }],
    });

    // Each invoice is paid in full, the payment carrying the fee.
    for (const [invoice, fee] of [
      [named, 1.45],
      [alone, 5.25],
    ] as const) {
      expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ status: 'paid', amount_due: 0 });
      const payments = (await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data;
      expect(payments).toEqual([expect.objectContaining({ amount: invoice.total, fee, fee_currency: 'EUR', method: 'transfer' })]);
    }
    // Nothing is paid twice: the line is used up, the invoice too.
    const again = await session.rest('POST', `/api/bank-transactions/${payout.id}/match`, {
      matches: [{ kind: 'invoice', id: far.id, amount: 1, fee: 0 }],
    });
    expect(again.status).toBe(409);
    expect(again.body.messages).toMatch(/^Le rapprochement \(1,00\s€\) dépasse ce qui reste de l’opération \(0,00\s€\)/);

    // The bank journal: 512 moves by the lines, 411 is cleared of both invoices' whole amounts, the fees on 627.
    const { text, rows, filename } = await fecRows(session);
    expect(checkFec(text, { closingDate: `${year}-12-31`, openingDate: `${year}-01-01`, siren: '552032534', filename })).toEqual([]);
    const bank = rows.filter((r) => r.JournalCode === 'BQ');
    expect(net(bank, '51201')).toBe(11855 + 29475 + 110000);
    expect(net(bank, '627')).toBe(145 + 525);
    expect(net(bank, '411')).toBe(-(12000 + 30000));
    // Sales put 411 on the debit: with the bank journal, only the third invoice is still owed.
    expect(net(rows, '411')).toBe(120000);
    expect(bank.filter((r) => r.CompteNum === '627').map((r) => r.EcritureLib)).toEqual([
      expect.stringContaining(`Frais ${named.number}`),
      expect.stringContaining(`Frais ${alone.number}`),
    ]);
    // The unexplained line waits on 471, and every entry balances.
    expect(net(bank, '471')).toBe(-110000);
    expect(bank.reduce((a, r) => a + cents(r.Debit) - cents(r.Credit), 0)).toBe(0);

    // The reconciliation holds the line's share, not the payment's whole amount.
    const reconciliation = (await session.rest('GET', `/api/bank-accounts/${confirmed.body.data.account_id}/reconciliation`)).body;
    expect(reconciliation.not_in_books.map((l: { amount: number }) => l.amount)).toEqual([1100]);
    expect(reconciliation).toMatchObject({ statement: { balance: 1513.3 }, book_balance: 413.3, difference: 1100 });

    // The payment of the second reversed: the customer owes the whole again, the fee leaves 627, the line's share waits on 471.
    const [payment] = (await session.rest('GET', `/api/documents/${alone.id}/payments`)).body.data as { id: number }[];
    expect((await session.rest('DELETE', `/api/documents/${alone.id}/payments/${payment?.id}`)).status).toBe(200);
    const reversed = (await fecRows(session)).rows;
    expect(net(reversed, '627')).toBe(145);
    expect(net(reversed, '411')).toBe(120000 + 30000);
    expect(net(reversed, '471')).toBe(-(110000 + 29475));
    expect(net(reversed, '51201')).toBe(11855 + 29475 + 110000);
    expect(reversed.reduce((a, r) => a + cents(r.Debit) - cents(r.Credit), 0)).toBe(0);
  });

  it('refuses a bad fee with a French message, and writes nothing', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Audit', 1, 100)] });
    const expense = (
      await session.rest('POST', '/api/expenses', {
        date: today,
        supplier: 'Orange',
        category: 'telecom',
        label: 'Box',
        amount: 59.99,
        vat: [],
        payment_method: 'transfer',
        status: 'unpaid',
      })
    ).body.data;
    const { lines } = await withStatement(session, [
      { date: today, amount: '118.55', label: 'VIREMENT' },
      { date: today, amount: '-61.00', label: 'PRLV ORANGE' },
    ]);
    const [credit, debit] = (await lines()) as [Line, Line];
    const tries: [number, Record<string, unknown>, number, RegExp][] = [
      [credit.id, { kind: 'invoice', id: invoice.id, amount: 120, fee: -1 }, 400, /Les frais ne peuvent pas être négatifs/],
      [credit.id, { kind: 'invoice', id: invoice.id, amount: 120, fee: 'beaucoup' }, 400, /Frais : un nombre est attendu/],
      [credit.id, { kind: 'invoice', id: invoice.id, amount: 120, fee: 120 }, 400, /Les frais doivent rester inférieurs au montant payé/],
      [credit.id, { kind: 'invoice', id: invoice.id, amount: 120, fee: 130 }, 400, /Les frais doivent rester inférieurs au montant payé/],
      // 120 less 1 is 119: more than the line's 118.55.
      [
        credit.id,
        { kind: 'invoice', id: invoice.id, amount: 120, fee: 1 },
        409,
        /\(119,00\s€, frais déduits\) dépasse ce qui reste de l’opération \(118,55\s€\)/,
      ],
      // More than the invoice's balance, even if the line could carry it with the fee.
      [credit.id, { kind: 'invoice', id: invoice.id, amount: 125, fee: 6.45 }, 409, /Le paiement dépasse le reste à payer \(120,00\s€\)/],
      [
        debit.id,
        { kind: 'expense', id: expense.id, amount: 59.99, fee: 1.01 },
        400,
        /Des frais ne se déduisent que d’un encaissement de facture/,
      ],
    ];
    for (const [id, match, status, message] of tries) {
      const answer = await session.rest('POST', `/api/bank-transactions/${id}/match`, { matches: [match] });
      expect(answer.status, JSON.stringify(match)).toBe(status);
      expect(String(answer.body.messages), JSON.stringify(match)).toMatch(message);
    }
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data).toEqual([]);
    expect((await lines()).map((l) => l.allocated)).toEqual([0, 0]);
    expect((await session.rest('GET', `/api/expenses/${expense.id}`)).body.status).toBe('unpaid');
  });
});

describe('a line split by hand across several documents', () => {
  it('finds the open invoices of a credit, pays several from one line, refuses a split over the line or an invoice, and writes nothing then', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const [a, b, c] = [
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Audit', 1, 100)] }),
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Conseil', 1, 150)] }),
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Formation', 1, 200)] }),
    ];
    const expense = (
      await session.rest('POST', '/api/expenses', {
        date: today,
        supplier: 'Imprimerie Moderne',
        category: 'supplies',
        label: 'Cartes de visite',
        invoice_number: 'IM-778',
        amount: 45,
        vat: [],
        payment_method: 'transfer',
        status: 'unpaid',
      })
    ).body.data;
    const { lines } = await withStatement(session, [
      { date: today, amount: '500.00', label: 'REMISE CHEQUES 0004512' },
      { date: today, amount: '-45.00', label: 'VIR IMPRIMERIE' },
    ]);
    const [deposit, debit] = (await lines()) as [Line, Line];

    // What each line could pay: invoices for the credit, searched by number or customer; expenses for the debit.
    const all = (await session.rest('GET', `/api/bank-transactions/${deposit.id}/candidates`)).body.data;
    expect(all.map((x: { id: number }) => x.id)).toEqual([a.id, b.id, c.id]);
    expect(all[0]).toMatchObject({ kind: 'invoice', balance: 120, currency: 'EUR', label: `${a.number} · Boulangerie Martin` });
    const byNumber = (await session.rest('GET', `/api/bank-transactions/${deposit.id}/candidates?q=${encodeURIComponent(b.number)}`)).body;
    expect(byNumber.data.map((x: { id: number }) => x.id)).toEqual([b.id]);
    const nobody = (await session.rest('GET', `/api/bank-transactions/${deposit.id}/candidates?q=personne`)).body;
    expect(nobody.data).toEqual([]);
    const expenses = (await session.rest('GET', `/api/bank-transactions/${debit.id}/candidates?q=im-7`)).body.data;
    expect(expenses).toEqual([
      expect.objectContaining({ kind: 'expense', id: expense.id, balance: 45, label: 'Imprimerie Moderne · IM-778' }),
    ]);
    const missing = await session.rest('GET', '/api/bank-transactions/999999/candidates');
    expect(missing.status).toBe(404);
    expect(missing.body.messages).toBe('Opération bancaire introuvable');

    // 120 + 180 + 240 = 540: more than the line's 500, refused whole.
    const over = await session.rest('POST', `/api/bank-transactions/${deposit.id}/match`, {
      matches: [
        { kind: 'invoice', id: a.id, amount: 120 },
        { kind: 'invoice', id: b.id, amount: 180 },
        { kind: 'invoice', id: c.id, amount: 240 },
      ],
    });
    expect(over.status).toBe(409);
    expect(over.body.messages).toMatch(/^Le rapprochement \(540,00\s€\) dépasse ce qui reste de l’opération \(500,00\s€\)/);
    // An invoice paid more than its balance, the first target valid: nothing of either is recorded.
    const tooMuch = await session.rest('POST', `/api/bank-transactions/${deposit.id}/match`, {
      matches: [
        { kind: 'invoice', id: a.id, amount: 120 },
        { kind: 'invoice', id: b.id, amount: 200 },
      ],
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.messages).toMatch(/^Le paiement dépasse le reste à payer \(180,00\s€\)$/);
    expect((await session.rest('GET', `/api/documents/${a.id}/payments`)).body.data).toEqual([]);
    expect(((await lines())[0] as Line).allocated).toBe(0);
    // The same invoice twice in one split.
    const twice = await session.rest('POST', `/api/bank-transactions/${deposit.id}/match`, {
      matches: [
        { kind: 'invoice', id: a.id, amount: 60 },
        { kind: 'invoice', id: a.id, amount: 60 },
      ],
    });
    expect(twice.status).toBe(409);
    expect(twice.body.messages).toBe('Cette opération est déjà rapprochée de ce document');
    // A credit never pays an expense.
    const wrongKind = await session.rest('POST', `/api/bank-transactions/${deposit.id}/match`, {
      matches: [{ kind: 'expense', id: expense.id, amount: 45 }],
    });
    expect(wrongKind.status).toBe(409);
    expect(wrongKind.body.messages).toBe('Un crédit paie des factures, pas des dépenses');

    // A split that adds up: a and b whole, c in part (500 − 300 = 200 of 240).
    const split = await session.rest('POST', `/api/bank-transactions/${deposit.id}/match`, {
      matches: [
        { kind: 'invoice', id: a.id, amount: 120 },
        { kind: 'invoice', id: b.id, amount: 180 },
        { kind: 'invoice', id: c.id, amount: '200,00' },
      ],
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    expect(split.body.data).toMatchObject({ status: 'matched', allocated: 500 });
    expect(split.body.data.matches.map((m: { amount: number }) => m.amount)).toEqual([120, 180, 200]);
    expect((await session.rest('GET', `/api/documents/${c.id}`)).body).toMatchObject({ status: owedStatus(c, 'partial'), amount_due: 40 });
    // The paid invoices are no longer offered; c is, for what is left of it.
    const left = (await session.rest('GET', `/api/bank-transactions/${deposit.id}/candidates`)).body.data;
    expect(left).toEqual([expect.objectContaining({ id: c.id, balance: 40 })]);
  });

  it('ignores a line with its reason, and takes it back', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const { lines } = await withStatement(session, [{ date: today, amount: '-12.40', label: 'CB BOULANGERIE DU COIN' }]);
    const [fee] = (await lines()) as [Line];
    const notIgnored = await session.rest('POST', `/api/bank-transactions/${fee.id}/unignore`, {});
    expect(notIgnored.status).toBe(409);
    expect(notIgnored.body.messages).toBe('Cette opération n’est pas ignorée');
    const noReason = await session.rest('POST', `/api/bank-transactions/${fee.id}/ignore`, { reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(String(noReason.body.messages)).toMatch(/Indiquez pourquoi cette ligne est ignorée/);
    expect((await session.rest('POST', `/api/bank-transactions/${fee.id}/ignore`, { reason: 'Achat personnel' })).status).toBe(200);
    expect((await lines())[0]).toMatchObject({ status: 'ignored', ignore_reason: 'Achat personnel' });
    const back = await session.rest('POST', `/api/bank-transactions/${fee.id}/unignore`, {});
    expect(back.status).toBe(200);
    expect(back.body.messages).toBe('Opération de nouveau à rapprocher');
    expect((await lines())[0]).toMatchObject({ status: 'unmatched', ignore_reason: '' });
  });
});
