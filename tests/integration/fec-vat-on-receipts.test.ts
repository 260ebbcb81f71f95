import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { line } from '../helpers/documents';
import { seedVatYear } from '../helpers/vat-year';
import { checkFec } from '../../src/shared/fec/check';
import { FEC_FIELDS } from '../../src/shared/fec/format';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function ok(session: Session, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const answer = await session.rest(method, path, body);
  expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

type Row = Record<(typeof FEC_FIELDS)[number], string>;
type Item = { base: number; tax: number; reverse_charge: string | null };
type Line = { code: string; tax: number | null; items: Item[] };

async function fecRows(session: Session) {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec?year=2025`);
  expect(response.status).toBe(200);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
  const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
  expect(checkFec(text, { closingDate: '2025-12-31', openingDate: '2025-01-01', siren: filename.slice(0, 9), filename })).toEqual([]);
  return text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => Object.fromEntries(FEC_FIELDS.map((f, i) => [f, l.split('\t')[i] ?? ''])) as Row);
}

const cents = (amount: string) => Number(amount.replace(',', ''));
const toCents = (amount: number | null) => Math.round((amount ?? 0) * 100);
/** Debits less credits on `account` of the entries dated in [from, to] (YYYYMMDD compared as text), in cents. */
const movement = (rows: Row[], account: string, from = '00000000', to = '99999999') =>
  rows
    .filter((r) => r.CompteNum === account && r.EcritureDate >= from && r.EcritureDate <= to)
    .reduce((a, r) => a + cents(r.Debit) - cents(r.Credit), 0);
/** Credits less debits, the way a VAT account collected reads. */
const credited = (rows: Row[], account: string, from?: string, to?: string) => 0 - movement(rows, account, from, to) || 0;

const months = Array.from({ length: 12 }, (_, i) => {
  const month = String(i + 1).padStart(2, '0');
  const last = new Date(Date.UTC(2025, i + 1, 0)).getUTCDate();
  return { month, from: `2025-${month}-01`, to: `2025-${month}-${last}` };
});

/**
 * The hand-computed year (tests/helpers/vat-year.ts), and after it, by hand:
 * May      F6, advice to a French business (services): 5 × 100 HT, 100 VAT, 600 TTC, on the 12th. Fees 360 TTC (60 VAT)
 *          on the 15th, never paid. Software from a US supplier, 100 HT, VAT self-assessed 20 on the 20th.
 * June     F6: 300 received on the 10th (half: 50 of VAT due). Fees 120 TTC (20 VAT) on the 1st, paid 10 September.
 * July     AV on F6: one day of advice (100 / 20 / 120) on the 5th: 300 of the 480 left to pay are paid, 62,50 of F6's
 *          VAT less 12,50 of the credit note's: still 50 due, nothing moves.
 * August   F6: 77,77 more on the 20th: 377,77 of 480 paid, F6's VAT due 78,70, the credit note's 15,74: 62,96, 12,96 more.
 * Year end on 44574: F6's 100 − the credit note's 20 − the 62,96 due = 17,04; on 44564: the unpaid fees' 60.
 */
async function seedMore(session: Session, customerId: number) {
  const f6 = await ok(session, 'POST', '/api/documents', {
    customer_id: customerId,
    date: '2025-05-12',
    items: [line('Conseil', 5, 100, 20)],
  });
  const issuedF6 = (await ok(session, 'POST', `/api/documents/${f6.data.id}/issue`)).data;
  const expense = (body: Record<string, unknown>) =>
    ok(session, 'POST', '/api/expenses', { supplier: 'Cabinet Conseil', payment_method: 'transfer', category: 'honoraires', ...body });
  await expense({ date: '2025-05-15', label: 'Audit', amount: 360, vat: [{ rate: 20, amount: 60 }] });
  await expense({
    date: '2025-05-20',
    supplier: 'Cloud Services Inc.',
    category: 'logiciels',
    invoice_number: 'INV-99812',
    label: 'Abonnement',
    amount: 100,
    vat: [{ rate: 20, amount: 20 }],
    reverse_charge: 'services',
    supplier_country: 'US',
    supplier_vat_number: '12-3456789',
  });
  await expense({
    date: '2025-06-01',
    label: 'Conseil social',
    amount: 120,
    vat: [{ rate: 20, amount: 20 }],
    status: 'paid',
    paid_at: '2025-09-10',
  });
  await ok(session, 'POST', `/api/documents/${issuedF6.id}/payments`, { date: '2025-06-10', amount: 300 });
  const creditDraft = (
    await ok(session, 'POST', `/api/documents/${issuedF6.id}/convert`, {
      type: 'credit',
      lines: [{ id: issuedF6.items[0].id, quantity: 1 }],
    })
  ).data;
  const draft = await ok(session, 'GET', `/api/documents/${creditDraft.id}`);
  await ok(session, 'PUT', `/api/documents/${creditDraft.id}`, { ...draft, date: '2025-07-05', maturity: null });
  await ok(session, 'POST', `/api/documents/${creditDraft.id}/issue`);
  await ok(session, 'POST', `/api/documents/${issuedF6.id}/payments`, { date: '2025-08-20', amount: 77.77 });
}

describe('the FEC agrees with the VAT return month by month (VAT on receipts through 44574 and 44564)', () => {
  let rows: Row[];
  const returns = new Map<string, Line[]>();
  let session: Session;
  beforeAll(async () => {
    ({ session } = await registered(server.url));
    const { f1 } = await seedVatYear(session);
    await seedMore(session, f1.customer_id);
    rows = await fecRows(session);
    for (const m of months) returns.set(m.month, (await ok(session, 'GET', `/api/reports/vat?from=${m.from}&to=${m.to}`)).lines);
  }, 180_000);

  const RATE_LINES = ['08', '09', '9B', 'T6', 'T'];
  it.each(months)(
    'month $month: 44571 moves by line 16 less the VAT self-assessed on purchases, 44566 by lines 19 + 20',
    ({ month, from, to }) => {
      const lines = returns.get(month) ?? [];
      const tax = (code: string) => toCents(lines.find((l) => l.code === code)?.tax ?? 0);
      // Self-assessed VAT is on the rate lines (so in 16) but booked to 4452, not 44571.
      const selfAssessed = lines
        .filter((l) => RATE_LINES.includes(l.code))
        .flatMap((l) => l.items)
        .filter((i) => i.reverse_charge !== null)
        .reduce((a, i) => a + toCents(i.tax), 0);
      const [d1, d2] = [from.replaceAll('-', ''), to.replaceAll('-', '')];
      expect(credited(rows, '44571', d1, d2)).toBe(tax('16') - selfAssessed);
      expect(movement(rows, '44566', d1, d2)).toBe(tax('19') + tax('20'));
    },
  );

  it('the months the issue measured, by hand: January 200, February 10, March 30 on 44571', () => {
    const collected = (month: string) => credited(rows, '44571', `2025${month}01`, `2025${month}31`);
    expect([collected('01'), collected('02'), collected('03')]).toEqual([20_000, 1_000, 3_000]);
    // The self-assessed software: 20 in May's line 16, not on 44571; May's 44571 is 0 (F6 unpaid).
    expect(collected('05')).toBe(0);
    expect(credited(rows, '4452', '20250501', '20250531')).toBe(2_000);
  });

  it('what waits at year end is what is still unpaid: 17,04 of F6 on 44574, 60 of the unpaid fees on 44564', () => {
    expect(credited(rows, '44574')).toBe(1_704);
    expect(movement(rows, '44564')).toBe(6_000);
    // Every entry balances, each transfer is an OD entry of its own.
    const transfers = rows.filter((r) => r.JournalCode === 'OD' && (r.CompteNum === '44574' || r.CompteNum === '44564'));
    expect(transfers.map((r) => [r.EcritureDate, r.CompteNum, r.Debit, r.Credit])).toEqual(
      [
        ['20250215', '44574', '10,00', '0,00'],
        // F1's credit note leaves less to pay: 660 of 1 080 paid makes 12,22 of the tune-up's VAT due, 2,22 more.
        ['20250305', '44574', '2,22', '0,00'],
        ['20250312', '44574', '60,00', '0,00'],
        ['20250320', '44574', '7,78', '0,00'],
        ['20250425', '44574', '20,00', '0,00'],
        ['20250610', '44574', '50,00', '0,00'],
        ['20250820', '44574', '12,96', '0,00'],
        ['20250205', '44564', '0,00', '40,00'],
        ['20250910', '44564', '0,00', '20,00'],
      ].sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? '')),
    );
    expect(new Set(rows.filter((r) => r.CompteNum === '44574').map((r) => r.CompteLib))).toEqual(
      new Set(['TVA collectée sur encaissements']),
    );
  });
});
