import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import { turnoverByCustomer, turnoverByItem, turnoverByTag } from '../../src/server/db/queries/reports';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, readyToInvoice } from '../helpers/documents';

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

/**
 * The reports' figures as they were computed before the monthly summaries, straight from the documents: turnover's
 * documents (issued standard invoices and credit notes, not a credit note of a deposit) of the period, grouped.
 */
const counted = (from: string, to: string, organizationId: number) => sql`d.organization_id = ${organizationId}
  and d.type in ('invoice', 'credit') and d.number is not null and d.kind = 'standard'
  and not (d.type = 'credit' and exists (select 1 from documents x where x.id = d.corrects_id and x.kind = 'deposit'))
  and d.date >= ${from} and d.date <= ${to}`;
const signed = (amount: string) => sql.raw(`sum(case when d.type = 'credit' then -(${amount}) else ${amount} end)`);

async function direct(db: Db, organizationId: number, from: string, to: string) {
  const where = counted(from, to, organizationId);
  const customers = await sql`select d.customer_id, max(d.customer_name) as name, d.currency, d.exchange_rate as rate,
      count(*) as count, ${signed('d.total - d.tax')} as net
    from documents d where ${where} group by d.customer_id, d.currency, d.exchange_rate`.execute(db);
  const items = await sql`select trim(i.item) as name, d.currency, d.exchange_rate as rate, count(distinct d.id) as count,
      ${signed('i.net')} as net
    from documents d join document_items i on i.document_id = d.id where ${where}
    group by trim(i.item), d.currency, d.exchange_rate`.execute(db);
  const tags = await sql`select t.tag_id, max(g.name) as name, d.currency, d.exchange_rate as rate, count(*) as count,
      ${signed('d.total - d.tax')} as net
    from documents d
    left join taggings t on t.kind = 'customer' and t.ref_id = d.customer_id and t.organization_id = d.organization_id
    left join tags g on g.id = t.tag_id
    where ${where} group by t.tag_id, d.currency, d.exchange_rate`.execute(db);
  return { customers: customers.rows, items: items.rows, tags: tags.rows };
}

/** Rows compared whatever their order and the driver's number types (PostgreSQL answers bigints as text). */
function normal(rows: unknown[]) {
  return rows
    .map((r) =>
      Object.fromEntries(
        Object.entries(r as Record<string, unknown>).map(([k, v]) => [
          k,
          k === 'count' || k === 'net' || k.endsWith('_id') ? (v === null ? null : Number(v)) : v,
        ]),
      ),
    )
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

async function reports(db: Db, organizationId: number, from: string, to: string) {
  const params = { organizationId, from, to };
  return {
    customers: await turnoverByCustomer(db, params),
    items: await turnoverByItem(db, params),
    tags: await turnoverByTag(db, params),
  };
}

/** Periods whose edges cut months, whole months, one month's middle, a year, and one before any document. */
const PERIODS = [
  ['2026-09-15', '2026-11-10'],
  ['2026-09-01', '2026-10-31'],
  ['2026-10-05', '2026-10-20'],
  ['2026-08-31', '2026-11-01'],
  ['2026-01-01', '2026-12-31'],
  ['2025-01-01', '2025-12-31'],
] as const;

describe('turnover by customer, item and tag from the monthly summaries (migration 0074)', () => {
  it('give the rows the documents give, for periods whose edges cut months, before and after a retag', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const other = (await ok(session, 'POST', '/api/customers', { ...businessCustomer, name: 'Import Export Inc.' })).data.id;
    await ok(session, 'POST', '/api/currencies', { code: 'USD', rate: '1,085' });
    // Invoices in date order (numbering is chronological), in three months, two currencies, designations with spaces
    // and one twice on a document.
    const dates = ['2026-09-03', '2026-09-20', '2026-10-01', '2026-10-12', '2026-10-31', '2026-11-05', '2026-11-18'];
    const invoices: { id: number; items: { id: number }[] }[] = [];
    for (const [n, date] of dates.entries())
      invoices.push(
        await issued(session, {
          customer_id: n % 3 === 0 ? other : customerId,
          date,
          ...(n % 2 === 0 ? { currency: 'USD', exchange_rate: '1,1' } : {}),
          items: [line('Conseil', 1, 100 + n), line(' Conseil ', 2, 10), line(`Audit  ${n % 2}`, 1, 55.5)],
        }),
      );
    // A credit note, a deposit with its credit note and the final invoice (dated today, whatever the month).
    const first = invoices[1];
    if (!first) throw new Error('no invoice');
    const credit = await ok(session, 'POST', `/api/documents/${first.id}/convert`, {
      type: 'credit',
      lines: [{ id: first.items[0]?.id, quantity: 1 }],
    });
    await ok(session, 'POST', `/api/documents/${credit.data.id}/issue`);
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 1000)] });
    const deposit = await ok(session, 'POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
    await ok(session, 'POST', `/api/documents/${deposit.data.id}/issue`);
    const depositCredit = await ok(session, 'POST', `/api/documents/${deposit.data.id}/convert`, { type: 'credit' });
    await ok(session, 'POST', `/api/documents/${depositCredit.data.id}/issue`);
    const final = await ok(session, 'POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    await ok(session, 'POST', `/api/documents/${final.data.id}/issue`);

    const pro = (await ok(session, 'POST', '/api/tags', { name: 'Pro', scopes: ['customer'] })).data;
    const abroad = (await ok(session, 'POST', '/api/tags', { name: 'Étranger', scopes: ['customer'] })).data;
    await ok(session, 'PUT', `/api/customers/${customerId}`, { ...businessCustomer, tag_ids: [pro.id] });
    await ok(session, 'PUT', `/api/customers/${other}`, { ...businessCustomer, name: 'Import Export Inc.', tag_ids: [pro.id, abroad.id] });

    await withServerDb(server, async (db) => {
      const { organization_id: organizationId } = await db
        .selectFrom('documents')
        .select('organization_id')
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      // Moved by hand through the triggers: the credit notes and the final invoice into other months, one invoice
      // without a customer (« Client divers »), a name greater than its customer's other documents'.
      await sql`update documents set date = '2026-09-25' where id = ${credit.data.id}`.execute(db);
      await sql`update documents set date = '2026-10-15' where id in (${final.data.id}, ${depositCredit.data.id})`.execute(db);
      await sql`update documents set customer_id = null, customer_name = 'Passant' where id = ${invoices[2]?.id ?? 0}`.execute(db);
      await sql`update documents set customer_name = 'Zz Boulangerie' where id = ${invoices[4]?.id ?? 0}`.execute(db);

      const same = async () => {
        for (const [from, to] of PERIODS) {
          const expected = await direct(db, organizationId, from, to);
          const got = await reports(db, organizationId, from, to);
          expect(normal(got.customers), `customers ${from} ${to}`).toEqual(normal(expected.customers));
          expect(normal(got.items), `items ${from} ${to}`).toEqual(normal(expected.items));
          expect(normal(got.tags), `tags ${from} ${to}`).toEqual(normal(expected.tags));
        }
      };
      await same();
      // Not vacuous: the year has every kind of row.
      const year = await reports(db, organizationId, '2026-01-01', '2026-12-31');
      expect(year.customers.some((r) => r.customer_id === null && r.name === 'Passant')).toBe(true);
      expect(year.customers.some((r) => r.name === 'Zz Boulangerie')).toBe(true);
      expect(year.items.find((r) => r.name === 'Conseil' && r.currency === 'EUR')?.count).toBe(4);
      expect(year.tags.some((r) => Number(r.tag_id) === abroad.id)).toBe(true);
      // A credit note of a deposit is not turnover; the final invoice counts in full.
      expect(Number(year.items.find((r) => r.name === 'Cuisine')?.count)).toBe(1);

      // Retagging regroups history without any summary written.
      await ok(session, 'PUT', `/api/customers/${other}`, { ...businessCustomer, name: 'Import Export Inc.', tag_ids: [abroad.id] });
      await same();
      expect(
        (await reports(db, organizationId, '2026-01-01', '2026-12-31')).tags.some(
          (r) => Number(r.tag_id) === pro.id && r.currency === 'USD',
        ),
      ).toBe(true);
    });
  });
});
