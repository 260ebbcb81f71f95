import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { seedVatYear } from '../helpers/vat-year';
import { add, toStoredUnits, ZERO, type Money } from '../../src/shared/money';
import { VAT_OPERATION_LINES } from '../../src/shared/schemas/vat-operations';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function ok(session: Session, path: string) {
  const answer = await session.rest('GET', path);
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

interface Operation {
  date: string;
  source: string;
  id: number;
  reference: string;
  party: string;
  rate: number;
  base: number;
  tax: number;
  link: string;
}
interface Line {
  code: string;
  base: number | null;
  tax: number | null;
  items: { source: string; id: number; base: number; tax: number }[];
}

/** Every page of a line's operations, `perPage` at a time, following `next`. */
async function allPages(session: Session, period: string, line: string, perPage: number) {
  const operations: Operation[] = [];
  let after: string | null = null;
  let pages = 0;
  let first: { base: number | null; tax: number | null; label: string } | undefined;
  do {
    const page = await ok(
      session,
      `/api/reports/vat/operations?${period}&line=${line}&per_page=${perPage}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    );
    first ??= page;
    expect(page.data.length).toBeLessThanOrEqual(perPage);
    operations.push(...page.data);
    after = page.next;
    pages += 1;
    expect(pages, 'the pages end').toBeLessThan(200);
  } while (after !== null);
  return { operations, pages, totals: first as NonNullable<typeof first> };
}

/** Stored integer units (10^-4) of a sum of amounts: what the ledger adds, never floats. */
const units = (amounts: readonly number[]) => toStoredUnits(amounts.reduce<Money>((s, a) => add(s, String(a)), ZERO));

describe('the operations of a line of the VAT return, page by page', () => {
  let session: Session;
  beforeAll(async () => {
    ({ session } = await registered(server.url));
    await seedVatYear(session);
    // June: an intra-community acquisition (self-assessed on B2 and 08, deducted on 20) and a fixed asset (19).
    const asset = await session.rest('POST', '/api/expenses/categories', { label: 'Matériel', account: '218300' });
    for (const expense of [
      {
        supplier: 'Holzwerk GmbH',
        supplier_vat_number: 'DE123456789',
        category: 'achats',
        label: 'Bois',
        amount: 1000,
        reverse_charge: 'goods',
        vat: [{ rate: 20, amount: 200 }],
      },
      { supplier: 'Outils Martin', category: asset.body.data.code, label: 'Perceuse', amount: 600, vat: [{ rate: 20, amount: 100 }] },
    ]) {
      const created = await session.rest('POST', '/api/expenses', {
        date: '2025-06-10',
        payment_method: 'transfer',
        status: 'paid',
        paid_at: '2025-06-10',
        ...expense,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  }, 120_000);

  for (const [name, from, to] of [
    ['the year', '2025-01-01', '2025-12-31'],
    ['March', '2025-03-01', '2025-03-31'],
    ['the second quarter', '2025-04-01', '2025-06-30'],
  ] as const)
    it(`adds up, page after page, to each line of the return: ${name}`, async () => {
      const period = `from=${from}&to=${to}`;
      const report = await ok(session, `/api/reports/vat?${period}`);
      let seen = 0;
      for (const code of VAT_OPERATION_LINES) {
        const line = report.lines.find((l: Line) => l.code === code) as Line;
        const { operations, totals } = await allPages(session, period, code, 2);
        seen += operations.length;
        // The page states the line's totals as the return does; the operations sum to them exactly.
        expect([totals.base, totals.tax], code).toEqual([line.base, line.tax]);
        if (line.base !== null) expect(units(operations.map((o) => o.base)), `${code} base`).toBe(toStoredUnits(String(line.base)));
        if (line.tax !== null) expect(units(operations.map((o) => o.tax)), `${code} tax`).toBe(toStoredUnits(String(line.tax)));
        // The same pieces as the return lists when it lists them, each in date order, none twice.
        const pieces = (list: { source: string; id: number }[]) => [...new Set(list.map((o) => `${o.source} ${o.id}`))].sort();
        expect(pieces(operations), code).toEqual(pieces(line.items.filter((i) => i.base !== 0 || i.tax !== 0)));
        const keys = operations.map((o) => `${o.date} ${o.source} ${String(o.id).padStart(9, '0')} ${o.rate}`);
        expect(keys, code).toEqual([...keys].sort());
        expect(new Set(keys).size, code).toBe(keys.length);
        for (const o of operations) {
          expect(o.date >= from && o.date <= to).toBe(true);
          expect(o.link).toMatch(o.source === 'expense' ? /^\/expenses\?search=/ : /^\/(invoices|credits)\/\d+\/view$/);
        }
      }
      expect(seen, 'not vacuous').toBeGreaterThan(3);
    });

  it('names each piece: number and customer, supplier invoice and supplier', async () => {
    const year = 'from=2025-01-01&to=2025-12-31';
    const sales = await ok(session, `/api/reports/vat/operations?${year}&line=08`);
    expect(sales.currency).toBe('EUR');
    expect(sales.label).toBe('Taux normal 20 %');
    expect(sales.data.length).toBeGreaterThan(0);
    for (const o of sales.data.filter((o: Operation) => o.source !== 'expense')) {
      expect(o.reference).not.toBe('');
      expect(o.party).not.toBe('');
    }
    const bought = await ok(session, `/api/reports/vat/operations?${year}&line=B2`);
    expect(bought.data).toMatchObject([{ source: 'expense', date: '2025-06-10', party: 'Holzwerk GmbH', reference: 'Bois', base: 1000 }]);
    expect(bought.data[0].link).toBe('/expenses?search=Holzwerk%20GmbH');
    const assets = await ok(session, `/api/reports/vat/operations?${year}&line=19`);
    expect(assets).toMatchObject({ base: null, tax: 100, data: [{ party: 'Outils Martin', tax: 100 }], next: null });
  });

  it('refuses a wrong period, line, cursor or page size in French', async () => {
    const year = 'from=2025-01-01&to=2025-12-31';
    for (const [query, message] of [
      ['from=2025-02-01&to=2025-01-01&line=08', 'Période : la date de fin (Au) doit suivre la date de début (Du)'],
      ['from=2025-13-01&to=2025-12-31&line=08', 'Du : date attendue au format AAAA-MM-JJ'],
      ['from=2010-01-01&to=2025-12-31&line=08', 'Période : 10 ans au plus entre Du et Au'],
      [
        `${year}&line=16`,
        'Ligne : une ligne de la CA3 qui porte des opérations est attendue (A3, B2, E1, E2, F2, 08, 9B, 09, T6, T, 19, 20)',
      ],
      [year, 'Ligne : une ligne de la CA3 qui porte des opérations est attendue (A3, B2, E1, E2, F2, 08, 9B, 09, T6, T, 19, 20)'],
      [`${year}&line=08&after=page-2`, 'Suite : la valeur « next » d’une page précédente est attendue'],
      [`${year}&line=08&per_page=0`, 'Lignes par page : 1 au moins'],
      [`${year}&line=08&per_page=500`, 'Cent lignes par page au plus'],
    ]) {
      const refused = await session.rest('GET', `/api/reports/vat/operations?${query}`);
      expect(refused.status, query).toBe(400);
      expect([refused.body.messages].flat().join('\n'), query).toContain(message);
    }
  });

  it('answers another organisation nothing of this one, and asks a session', async () => {
    const year = 'from=2025-01-01&to=2025-12-31';
    const { operations } = await allPages(session, year, '08', 100);
    const other = (await registered(server.url)).session;
    for (const o of operations.slice(0, 1)) {
      const page = await ok(other, `/api/reports/vat/operations?${year}&line=08&after=${o.date}_${o.source}_${o.id - 1}_${o.rate}`);
      expect(page).toMatchObject({ base: 0, tax: 0, data: [], next: null });
    }
    expect(await ok(other, `/api/reports/vat/operations?${year}&line=08`)).toMatchObject({ base: 0, tax: 0, data: [], next: null });
    const anonymous = await new Session(server.url).rest('GET', `/api/reports/vat/operations?${year}&line=08`);
    expect(anonymous.status).toBe(401);
  });

  it('serves the same page through tRPC', async () => {
    const page = await session.trpc().reports.vatOperations.query({ from: '2025-01-01', to: '2025-12-31', line: '08', per_page: 3 });
    const rest = await ok(session, '/api/reports/vat/operations?from=2025-01-01&to=2025-12-31&line=08&per_page=3');
    expect(page).toEqual(rest);
    expect(page.next).not.toBeNull();
  });

  it('is documented in the OpenAPI document the app serves, beside the return', async () => {
    const document = await ok(new Session(server.url), '/api/openapi.json');
    const operation = document.paths['/api/reports/vat/operations']?.get;
    expect(operation?.summary).toBe('Opérations d’une ligne de la CA3 sur la période, par pages (curseur « next »)');
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['after', 'from', 'line', 'per_page', 'to']);
    expect(Object.keys(operation.responses)).toContain('200');
  });
});
