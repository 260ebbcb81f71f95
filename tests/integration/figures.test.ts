import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const today = new Date().toISOString().slice(0, 10);
const longAgo = `${Number(today.slice(0, 4)) - 1}-01-15`;

describe('figures: Vue d’ensemble and the customer page', () => {
  it('sums turnover, receivables and overdue amounts from issued documents only', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const old = await issued(session, { customer_id: customerId, date: longAgo, maturity: longAgo, items: [line('Ancien', 1, 500)] }); // 600 TTC, overdue
    const recent = await issued(session, { customer_id: customerId, date: today, items: [line('Récent', 2, 100)] }); // 200 HT, 240 TTC
    await draft(session, { customer_id: customerId, date: today, items: [line('Brouillon', 1, 9999)] });
    await issued(session, { type: 'estimate', customer_id: customerId, date: today, items: [line('Devis', 1, 7777)] });
    await session.rest('POST', `/api/documents/${recent.id}/payments`, { date: today, amount: 40 });
    const credit = await session.rest('POST', `/api/documents/${recent.id}/convert`, {
      type: 'credit',
      lines: [{ id: recent.items[0].id, quantity: 1 }],
    });
    await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`);

    const figures = (await session.rest('GET', '/api/dashboard')).body;
    expect(figures).toMatchObject({
      currency: 'EUR',
      turnover_month: 100, // 200 HT invoiced − 100 HT credited
      turnover_year: 100,
      outstanding: 680, // 600 overdue + (240 − 40 paid − 120 credited)
      open_invoices: 2,
      overdue: 600,
      overdue_count: 1,
    });
    expect(figures.monthly).toHaveLength(12);
    expect(figures.latest.map((d: { id: number }) => d.id)).toContain(old.id);

    const customer = (await session.rest('GET', `/api/customers/${customerId}/figures`)).body;
    expect(customer.data).toEqual([{ currency: 'EUR', billed: 720, paid: 40, outstanding: 680, documents: 3 }]);
    const stranger = (await registered(server.url)).session;
    expect((await stranger.rest('GET', `/api/customers/${customerId}/figures`)).status).toBe(404);
  });
});
