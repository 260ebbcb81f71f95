import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser } from '../helpers/clients';
import { createApiClient, type ApiClient } from '../../scripts/api-client';
import { seedOrganisation } from '../../scripts/seed/index';
import { addDays } from '../../scripts/seed/planner';
import { DOCUMENT_TYPES } from '../../src/shared/schemas/document';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const today = new Date().toISOString().slice(0, 10);

async function freshOrganisation(): Promise<ApiClient> {
  const { client } = createApiClient(server.url);
  await client.auth.register.mutate(newUser());
  return client;
}

async function allDocuments(client: ApiClient) {
  const all = [];
  for (let page = 1; ; page++) {
    const { total, data } = await client.documents.list.query({ per_page: 100, page, sort_by: 'date', sort_order: 'asc' });
    all.push(...data);
    if (all.length >= total || data.length === 0) return all;
  }
}

const counterOf = (number: string) => Number(defined(/(\d+)$/.exec(number), 'a number ending in digits')[1]);

describe('seed: a French organisation’s year through the typed client', () => {
  it('creates every document type, numbered without gaps in date order, with payments that fit', async () => {
    const client = await freshOrganisation();
    const summary = await seedOrganisation(client, { seed: 7, documents: 40 });
    expect(summary).toMatchObject({ customers: 30, items: 60, documents: 40 });

    const docs = await allDocuments(client);
    expect(docs).toHaveLength(40);
    expect(new Set(docs.map((d) => d.type))).toEqual(new Set(DOCUMENT_TYPES));
    expect(docs.every((d) => d.date <= today && d.date > addDays(today, -366))).toBe(true);

    // CGI art. 242 nonies A: one chronological series per type, 1..n without gaps.
    for (const type of DOCUMENT_TYPES) {
      const numbered = docs
        .filter((d) => d.type === type && d.number)
        .sort((a, b) => counterOf(defined(a.number, 'a.number')) - counterOf(defined(b.number, 'b.number')));
      expect(
        numbered.map((d) => counterOf(defined(d.number, 'd.number'))),
        type,
      ).toEqual(numbered.map((_, i) => i + 1));
      const dates = numbered.map((d) => d.date);
      expect(dates, type).toEqual([...dates].sort());
    }

    const invoices = docs.filter((d) => d.type === 'invoice' && d.number);
    for (const invoice of invoices) {
      expect(invoice.paid, defined(invoice.number, 'invoice.number')).toBeLessThanOrEqual(invoice.total);
      expect(invoice.amount_due, defined(invoice.number, 'invoice.number')).toBeGreaterThanOrEqual(0);
    }
    const statuses = new Set(docs.map((d) => `${d.type}:${d.status}`));
    for (const expected of [
      'invoice:paid',
      'invoice:overdue',
      'invoice:canceled',
      'invoice:draft',
      'estimate:converted',
      'estimate:pending',
      'estimate:refused',
    ]) {
      expect(statuses).toContain(expected);
    }
    expect(invoices.some((d) => d.kind === 'deposit' && d.status === 'paid')).toBe(true);
    expect(invoices.some((d) => d.deposits > 0)).toBe(true);
    expect(summary.payments).toBeGreaterThan(0);

    const figures = await client.figures.dashboard.query();
    expect(figures.outstanding).toBeGreaterThan(0);
    expect(figures.overdue).toBeGreaterThan(0);
    expect(figures.overdue_count).toBeGreaterThan(0);
    // The months are this calendar year's: in early January the seeded year may have no invoice in it yet.
    const billedThisYear = invoices.some((d) => d.date.startsWith(today.slice(0, 4)) && d.status !== 'canceled');
    expect(figures.monthly.some((m) => m > 0)).toBe(billedThisYear);
    expect(figures.latest.length).toBeGreaterThan(0);
  });

  it('gives the same data for the same seed', async () => {
    const shape = async () => {
      const client = await freshOrganisation();
      await seedOrganisation(client, { seed: 11, documents: 20 });
      return (await allDocuments(client)).map((d) => [d.type, d.status, d.number, d.date, d.customer_name, d.total, d.paid]);
    };
    const [first, second] = await Promise.all([shape(), shape()]);
    expect(first).toEqual(second);
  });
});
