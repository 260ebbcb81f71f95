import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
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

/** A converted draft (dated the day it is made) moved to the day of the year it belongs to, then issued. */
async function seededYear() {
  const { session } = await registered(server.url);
  return { session, ...(await seedVatYear(session)) };
}

type Line = { code: string; base: number | null; tax: number | null; items: { reference: string; base: number; tax: number }[] };
/** The return's non-empty lines as `code: [base, tax]`, the way the accountant reads them off the form. */
const vat = (lines: Line[], code: string) => lines.find((l) => l.code === code) as Line;
const figures = (lines: Line[]) =>
  Object.fromEntries(lines.filter((l) => (l.base ?? 0) !== 0 || (l.tax ?? 0) !== 0).map((l) => [l.code, [l.base, l.tax]]));

describe('the VAT return of a hand-computed year (receipts basis)', () => {
  let seeded: Awaited<ReturnType<typeof seededYear>>;
  beforeAll(async () => {
    seeded = await seededYear();
  }, 120_000);

  const cases = [
    {
      period: 'January',
      from: '2025-01-01',
      to: '2025-01-31',
      expected: { A1: [1000, null], '08': [1000, 200], '16': [null, 200], '20': [null, 20.05], '23': [null, 20.05], '28': [null, 179.95] },
    },
    {
      period: 'February',
      from: '2025-02-01',
      to: '2025-02-28',
      expected: {
        A1: [50, null],
        E1: [500, null],
        E2: [300, null],
        F2: [400, null],
        '08': [50, 10],
        '16': [null, 10],
        '20': [null, 40],
        '23': [null, 40],
        '25': [null, 30],
        '27': [null, 30],
      },
    },
    {
      period: 'March',
      from: '2025-03-01',
      to: '2025-03-31',
      expected: { A1: [150, null], '08': [150, 30], '16': [null, 30], '28': [null, 30] },
    },
    {
      period: 'April',
      from: '2025-04-01',
      to: '2025-04-30',
      expected: {
        A1: [1000, null],
        '08': [700, 140],
        '9B': [200, 20],
        '09': [100, 5.5],
        '16': [null, 165.5],
        '28': [null, 165.5],
      },
    },
    {
      period: 'the first quarter',
      from: '2025-01-01',
      to: '2025-03-31',
      expected: {
        A1: [1200, null],
        E1: [500, null],
        E2: [300, null],
        F2: [400, null],
        '08': [1200, 240],
        '16': [null, 240],
        '20': [null, 60.05],
        '23': [null, 60.05],
        '28': [null, 179.95],
      },
    },
    {
      period: 'the year (CA12)',
      from: '2025-01-01',
      to: '2025-12-31',
      expected: {
        A1: [2200, null],
        E1: [500, null],
        E2: [300, null],
        F2: [400, null],
        '08': [1900, 380],
        '9B': [200, 20],
        '09': [100, 5.5],
        '16': [null, 405.5],
        '20': [null, 60.05],
        '23': [null, 60.05],
        '28': [null, 345.45],
      },
    },
  ];

  it.each(cases)('$period, to the cent, through REST', async ({ from, to, expected }) => {
    const vat = await ok(seeded.session, 'GET', `/api/reports/vat?from=${from}&to=${to}`);
    expect(figures(vat.lines)).toEqual(expected);
    // The summary per rate and what is due agree with the lines.
    const gross = vat.lines.find((l: Line) => l.code === '16').tax;
    expect(vat.collected.reduce((s: number, c: { amount: number }) => s + c.amount * 100, 0) / 100).toBeCloseTo(gross, 2);
  });

  it('the same return through the typed client, each line traced to its documents and expenses', async () => {
    const vat = await seeded.session.trpc().reports.vat.query({ from: '2025-03-01', to: '2025-03-31' });
    const line08 = vat.lines.find((l) => l.code === '08');
    expect(line08?.items.map((i) => [i.reference, i.nature, i.date, i.base, i.tax])).toEqual([
      [seeded.credit.number, 'goods', '2025-03-05', -200, -40],
      [seeded.depositInvoice.number, 'goods', '2025-03-12', 300, 60],
      [seeded.f1.number, 'services', '2025-03-20', 50, 10],
    ]);
    const february = await seeded.session.trpc().reports.vat.query({ from: '2025-02-01', to: '2025-02-28' });
    const deductible = february.lines.find((l) => l.code === '20');
    expect(deductible?.items.map((i) => [i.source, i.party, i.date, i.base, i.tax])).toEqual([
      ['expense', 'Cabinet Comptable', '2025-02-05', 200, 40],
    ]);
    const january = await seeded.session.trpc().reports.vat.query({ from: '2025-01-01', to: '2025-01-31' });
    // The 0,27 expense: its base is what was paid less its VAT, 0,22.
    expect(january.deductible).toEqual([{ rate: 20, base: 100.22, amount: 20.05 }]);
  });

  it('the year’s return agrees with the year’s FEC to the cent: VAT collected, VAT deducted, sales by CA3 frame', async () => {
    const response = await seeded.session.fetch(`${seeded.session.baseUrl}/api/exports/fec?year=2025`);
    expect(response.status).toBe(200);
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? '';
    expect(filename).toMatch(/^\d{9}FEC20251231\.txt$/);
    const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
    const siren = filename.slice(0, 9);
    expect(checkFec(text, { closingDate: '2025-12-31', openingDate: '2025-01-01', siren, filename })).toEqual([]);
    const rows = text
      .split('\r\n')
      .slice(1, -1)
      .map((l) => Object.fromEntries(l.split('\t').map((cell, i) => [FEC_FIELDS[i], cell])) as Record<(typeof FEC_FIELDS)[number], string>);
    const cents = (amount: string) => Number(amount.replace(',', ''));
    /** Credits less debits of the accounts starting with `prefix`, in cents. */
    const credit = (prefix: string) =>
      rows.filter((r) => r.CompteNum.startsWith(prefix)).reduce((a, r) => a + cents(r.Credit) - cents(r.Debit), 0);
    const year = await ok(seeded.session, 'GET', '/api/reports/vat?from=2025-01-01&to=2025-12-31');
    const tax = (code: string) => Math.round((vat(year.lines, code).tax ?? 0) * 100);
    const base = (code: string) => Math.round((vat(year.lines, code).base ?? 0) * 100);
    // Every sale of the year was paid within it, or is goods: the VAT due on receipts over the year is the VAT booked.
    expect(credit('44571')).toBe(tax('16'));
    expect(credit('44571')).toBe(40_550);
    expect(-credit('44566')).toBe(tax('19') + tax('20'));
    expect(-credit('44566')).toBe(6_005);
    // Revenue (706 services, 707 goods, 708 shipping) is the bases of A1 (taxed), E1 (exports), E2 (other untaxed) and
    // F2 (intra-community supplies).
    expect(credit('70')).toBe(base('A1') + base('E1') + base('E2') + base('F2'));
    expect(credit('70')).toBe(340_000);
    // The deposit booked on 4191 is taken back by its final invoice; receipts and paid expenses meet in 512.
    expect(credit('4191')).toBe(0);
    expect(-credit('411')).toBe(50_000 + 30_000 + 40_000 + 84_000);
    expect(-credit('512')).toBe(66_000 + 36_000 + 42_000 + 32_550 - 24_000 - 27);
  });

  it('the credit of last return (22) and a refund (26) from the user', async () => {
    const vat = await ok(seeded.session, 'GET', '/api/reports/vat?from=2025-02-01&to=2025-02-28&previous_credit=12.5&refund=40');
    expect(figures(vat.lines)).toMatchObject({
      '22': [null, 12.5],
      '23': [null, 52.5],
      '25': [null, 42.5],
      '26': [null, 40],
      '27': [null, 2.5],
    });
    const bad = await seeded.session.rest('GET', '/api/reports/vat?from=2025-02-01&to=2025-02-28&refund=-1');
    expect(bad.status).toBe(400);
  });
});

describe('deductible VAT by what the expense buys', () => {
  it('a fixed asset (class 2 category) on line 19 when invoiced; a service on line 20 only once paid', async () => {
    const { session } = await registered(server.url);
    const category = await ok(session, 'POST', '/api/expenses/categories', { label: 'Matériel informatique', account: '218300' });
    const expense = (body: Record<string, unknown>) => ok(session, 'POST', '/api/expenses', { supplier: 'Fournisseur', ...body });
    await expense({
      date: '2025-05-06',
      category: category.data.code,
      label: 'Ordinateur',
      amount: 1800,
      vat: [{ rate: 20, amount: 300 }],
    });
    const rent = (
      await expense({ date: '2025-05-02', category: 'loyer', label: 'Loyer de mai', amount: 960, vat: [{ rate: 20, amount: 160 }] })
    ).data;
    const may = await ok(session, 'GET', '/api/reports/vat?from=2025-05-01&to=2025-05-31');
    expect(figures(may.lines)).toEqual({ '19': [null, 300], '23': [null, 300], '25': [null, 300], '27': [null, 300] });
    // The rent paid in June: deductible in June.
    await ok(session, 'PUT', `/api/expenses/${rent.id}`, { ...rent, status: 'paid', paid_at: '2025-06-03' });
    const june = await ok(session, 'GET', '/api/reports/vat?from=2025-06-01&to=2025-06-30');
    expect(figures(june.lines)).toEqual({ '20': [null, 160], '23': [null, 160], '25': [null, 160], '27': [null, 160] });
    expect(june.deductible).toEqual([{ rate: 20, base: 800, amount: 160 }]);
  });
});

describe('VAT self-assessed on purchases (autoliquidation)', () => {
  it('goods from another member state on B2, 08 and 17; services from abroad on A3; owed and deducted in the same month', async () => {
    const { session } = await registered(server.url);
    const goods = (
      await ok(session, 'POST', '/api/expenses', {
        date: '2025-06-04',
        supplier: 'Holzwerk GmbH',
        supplier_vat_number: 'DE123456789',
        category: 'achats',
        label: 'Planches',
        amount: 1000,
        reverse_charge: 'goods',
        vat: [{ rate: 20, amount: 200 }],
      })
    ).data;
    // Nothing was paid to the supplier as VAT: the expense is all HT.
    expect(goods).toMatchObject({ reverse_charge: 'goods', amount: 1000, net: 1000, vat_total: 0, deductible_vat: 0 });
    await ok(session, 'POST', '/api/expenses', {
      date: '2025-06-10',
      supplier: 'Cloud Inc.',
      category: 'logiciels',
      label: 'Hébergement',
      amount: 300,
      reverse_charge: 'services',
      vat: [{ rate: 20, amount: 60 }],
    });
    const june = await ok(session, 'GET', '/api/reports/vat?from=2025-06-01&to=2025-06-30');
    expect(figures(june.lines)).toEqual({
      A3: [300, null],
      B2: [1000, null],
      '08': [1300, 260],
      '16': [null, 260],
      '17': [null, 200],
      '20': [null, 260],
      '23': [null, 260],
    });
    const b2 = june.lines.find((l: Line) => l.code === 'B2');
    expect(b2.items).toMatchObject([{ source: 'expense', party: 'Holzwerk GmbH', base: 1000, tax: 200, reverse_charge: 'goods' }]);
  });
});
