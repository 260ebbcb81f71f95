import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import { receiptsOfPeriod, receiptsTotals } from '../../src/server/db/queries/reports';
import { receiptsBook, urssafReport } from '../../src/server/services/reports';
import { converter } from '../../src/server/services/report-currency';
import { add, sub, toNumber, ZERO, type Money } from '../../src/shared/money';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';

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

/** The livre des recettes' totals as they were computed before the monthly summaries: every payment of the period. */
async function directTotals(db: Db, organizationId: number, from: string, to: string) {
  const { rows } = await sql`select d.currency, d.exchange_rate as rate, count(*) as count, sum(p.amount) as amount
    from payments p join documents d on d.id = p.document_id
    where p.organization_id = ${organizationId} and p.date >= ${from} and p.date <= ${to}
    group by d.currency, d.exchange_rate`.execute(db);
  return rows;
}

/**
 * The URSSAF report as it was computed before the monthly summaries: every payment of the year so far and the period
 * per day, a mixed document's payment alone in its row and truncated on its own, summed per period in the base currency.
 */
async function directUrssaf(db: Db, organizationId: number, params: { from: string; to: string; group: 'month' | 'quarter' }) {
  const { toBase } = await converter(db, organizationId);
  const yearStart = `${params.to.slice(0, 4)}-01-01`;
  const from = params.from < yearStart ? params.from : yearStart;
  const part = sql`case when d.lines_net <= 0 or d.goods_net = 0 then 0 when d.goods_net = d.lines_net then -1 else p.id end`;
  const { rows } = await sql<{ date: string; amount: number; currency: string; rate: string | null; goods: number; lines: number }>`
    select p.date, sum(p.amount) as amount, d.currency, d.exchange_rate as rate,
      case when ${part} = 0 then 0 when ${part} = -1 then 1 else max(d.goods_net) end as goods,
      case when ${part} <= 0 then 1 else max(d.lines_net) end as lines
    from payments p join documents d on d.id = p.document_id
    where p.organization_id = ${organizationId} and p.date >= ${from} and p.date <= ${params.to}
    group by p.date, d.currency, d.exchange_rate, ${part}`.execute(db);
  const periodOf = (date: string) =>
    params.group === 'month' ? date.slice(0, 7) : `${date.slice(0, 4)}-T${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
  const sums = new Map<
    string,
    { period: string; inYear: boolean; inPeriod: boolean; currency: string; rate: string | null; goods: bigint; all: bigint }
  >();
  for (const r of rows) {
    const goods = Number(r.lines) > 0 ? (BigInt(r.amount) * BigInt(r.goods)) / BigInt(r.lines) : 0n;
    const key = `${periodOf(r.date)} ${r.date >= yearStart} ${r.date >= params.from} ${r.currency} ${r.rate}`;
    const e = sums.get(key) ?? {
      period: periodOf(r.date),
      inYear: r.date >= yearStart,
      inPeriod: r.date >= params.from,
      currency: r.currency,
      rate: r.rate,
      goods: 0n,
      all: 0n,
    };
    sums.set(key, { ...e, goods: e.goods + goods, all: e.all + BigInt(r.amount) });
  }
  const periods = new Map<string, { goods: Money; total: Money }>();
  let yearGoods = ZERO;
  let yearTotal = ZERO;
  for (const e of sums.values()) {
    const goods = await toBase(e.goods, e);
    const total = await toBase(e.all, e);
    if (e.inYear) [yearGoods, yearTotal] = [add(yearGoods, goods), add(yearTotal, total)];
    if (!e.inPeriod) continue;
    const p = periods.get(e.period) ?? { goods: ZERO, total: ZERO };
    periods.set(e.period, { goods: add(p.goods, goods), total: add(p.total, total) });
  }
  const cents = (m: Money) => toNumber(m, 2);
  return {
    data: [...periods]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, p]) => ({ period, goods: cents(p.goods), services: cents(sub(p.total, p.goods)), total: cents(p.total) })),
    year: { goods: cents(yearGoods), services: cents(sub(yearTotal, yearGoods)), total: cents(yearTotal) },
  };
}

const normal = (rows: unknown[]) =>
  rows
    .map((r) =>
      Object.fromEntries(
        Object.entries(r as Record<string, unknown>).map(([k, v]) => [k, k === 'count' || k === 'amount' ? Number(v) : v]),
      ),
    )
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Periods whose edges cut months, whole months, one month's middle, a year, one before any payment, one across years. */
const PERIODS = [
  ['2025-09-15', '2025-11-10'],
  ['2025-09-01', '2025-10-31'],
  ['2025-10-05', '2025-10-20'],
  ['2025-08-31', '2025-12-01'],
  ['2025-01-01', '2025-12-31'],
  ['2024-01-01', '2024-12-31'],
  ['2024-12-10', '2025-10-14'],
] as const;

describe('receipts book totals and URSSAF report from the monthly summaries (migration 0075)', () => {
  it('give the figures the payments give, to the cent, for periods whose edges cut months', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await ok(session, 'POST', '/api/currencies', { code: 'USD', rate: '1,085' });
    // Invoices of goods, of services and of both (whose payments are split one by one), in euros and dollars.
    const natures = [
      [line('Article', 3, 33.33, 5.5, { kind: 'goods' })],
      [line('Conseil', 1, 101.01, 20, { kind: 'service' })],
      [line('Article', 1, 77.77, 5.5, { kind: 'goods' }), line('Pose', 1, 33.33, 20, { kind: 'service' })],
    ];
    const invoices: { id: number }[] = [];
    for (let n = 0; n < 6; n++)
      invoices.push(
        await issued(session, {
          customer_id: customerId,
          date: '2024-12-05',
          ...(n % 2 === 1 ? { currency: 'USD', exchange_rate: '1,1' } : {}),
          items: natures[n % 3],
        }),
      );
    // Payments (none in the future: refused) of odd amounts (each mixed one truncated on its own) over the months, the edges of the periods among them.
    const dates = [
      '2024-12-20',
      '2025-01-20',
      '2025-09-01',
      '2025-09-14',
      '2025-09-15',
      '2025-09-30',
      '2025-10-05',
      '2025-10-14',
      '2025-10-31',
    ];
    const more = ['2025-11-01', '2025-11-10', '2025-11-11', '2025-11-30', '2025-12-01', '2025-12-02'];
    let k = 0;
    for (const invoice of invoices)
      for (const date of [...dates, ...more].filter((_, i) => (i + k) % 3 !== 0))
        await ok(session, 'POST', `/api/documents/${invoice.id}/payments`, { date, amount: 1.01 + (k++ % 7) * 0.13 });

    await withServerDb(server, async (db) => {
      const { organization_id: organizationId } = await db
        .selectFrom('documents')
        .select('organization_id')
        .where('id', '=', invoices[0]?.id ?? 0)
        .executeTakeFirstOrThrow();
      const same = async () => {
        for (const [from, to] of PERIODS) {
          expect(normal(await receiptsTotals(db, { organizationId, from, to })), `totals ${from} ${to}`).toEqual(
            normal(await directTotals(db, organizationId, from, to)),
          );
          // Every page of three, its start found by the months' counts, as the payments give it by OFFSET.
          const all = (
            await sql`select p.date, d.customer_name, d.number, p.amount, p.method, d.currency, d.exchange_rate as rate
              from payments p join documents d on d.id = p.document_id
              where p.organization_id = ${organizationId} and p.date >= ${from} and p.date <= ${to} order by p.date, p.id`.execute(db)
          ).rows;
          for (let offset = 0; offset <= all.length; offset += 3)
            expect(await receiptsOfPeriod(db, { organizationId, from, to, limit: 3, offset }), `page ${from} ${to} ${offset}`).toEqual(
              all.slice(offset, offset + 3),
            );
          for (const group of ['month', 'quarter'] as const) {
            const got = await urssafReport(db, organizationId, { from, to, group });
            const expected = await directUrssaf(db, organizationId, { from, to, group });
            expect(
              { data: got.data, year: { goods: got.year.goods, services: got.year.services, total: got.year.total } },
              `URSSAF ${group} ${from} ${to}`,
            ).toEqual(expected);
          }
        }
      };
      await same();
      // Not vacuous: the year has goods, services and a mixed split.
      const year = await urssafReport(db, organizationId, { from: '2025-01-01', to: '2025-12-31', group: 'month' });
      expect(year.year.goods).toBeGreaterThan(0);
      expect(year.year.services).toBeGreaterThan(0);
      const parts = await db.selectFrom('summary_payment_months').select('part').where('organization_id', '=', organizationId).execute();
      expect(parts.some((p) => Number(p.part) > 0)).toBe(true);
      // The page count follows the totals.
      const book = await receiptsBook(db, organizationId, { from: '2025-09-15', to: '2025-11-10', page: 1 });
      expect(book.count).toBe(
        Number(
          (await directTotals(db, organizationId, '2025-09-15', '2025-11-10')).reduce(
            (n: number, r) => n + Number((r as { count: number }).count),
            0,
          ),
        ),
      );

      // Moved by hand through the triggers: a payment to another month and document, one deleted, a document's lines
      // and rate changed under its payments.
      const [a, b] = (
        await db.selectFrom('payments').select('id').where('organization_id', '=', organizationId).orderBy('id').limit(2).execute()
      ).map((r) => Number(r.id));
      await sql`update payments set date = '2025-10-20', amount = amount + 3, document_id = ${invoices[2]?.id ?? 0} where id = ${a ?? 0}`.execute(
        db,
      );
      await sql`delete from payments where id = ${b ?? 0}`.execute(db);
      await sql`update documents set goods_net = lines_net / 3, exchange_rate = '1.25' where id = ${invoices[1]?.id ?? 0}`.execute(db);
      await sql`update documents set goods_net = lines_net where id = ${invoices[2]?.id ?? 0}`.execute(db);
      await same();

      // Documents deleted with their payments (by the cascade) take their receipts off.
      await sql`delete from documents where id in (${invoices[3]?.id ?? 0}, ${invoices[4]?.id ?? 0})`.execute(db);
      await same();
      await sql`delete from documents where organization_id = ${organizationId}`.execute(db);
      expect(await db.selectFrom('summary_payment_months').select('month').where('organization_id', '=', organizationId).execute()).toEqual(
        [],
      );
    });
  });
});
