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
const lastYear = `${Number(today.slice(0, 4)) - 1}-01-15`;

describe('customers list: the “has unpaid invoices” filter', () => {
  it('lists the customers with an issued invoice unpaid or partly paid, until it is paid in full', async () => {
    const { session } = await registered(server.url);
    const { customerId: owing } = await readyToInvoice(session);
    const other = (await session.rest('POST', '/api/customers', { name: 'Café des Arts' })).body.data.id as number;
    // Only issued invoices count: a draft invoice and an issued estimate leave “Café des Arts” out.
    await draft(session, { customer_id: other, items: [line('Brouillon', 1, 50)] });
    await issued(session, { type: 'estimate', customer_id: other, items: [line('Devis', 1, 80)] });
    const invoice = await issued(session, { customer_id: owing, date: today, items: [line('Pains', 10, 10)] }); // 120 TTC

    const names = async (query: string) => {
      const answer = await session.rest('GET', `/api/customers?${query}`);
      expect(answer.status, query).toBe(200);
      return answer.body.data.map((c: { id: number }) => c.id);
    };
    expect(await names('unpaid=true')).toEqual([owing]);
    expect(await names('unpaid=false')).toEqual([other]);
    expect(await names('unpaid=')).toHaveLength(2); // an empty value is no filter, as the URL may carry it
    expect((await session.trpc().customers.list.query({ unpaid: true })).data.map((c) => c.id)).toEqual([owing]);

    // Partly paid is still owing.
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 20 })).status).toBe(201);
    expect(await names('unpaid=true')).toEqual([owing]);

    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 100 })).status).toBe(201);
    expect(await names('unpaid=true')).toEqual([]);
    expect(await names('unpaid=false')).toHaveLength(2);
  });

  it('counts overdue invoices (stored unpaid) and stays within the organisation', async () => {
    const { session: owner } = await registered(server.url);
    const { customerId } = await readyToInvoice(owner);
    await issued(owner, { customer_id: customerId, date: lastYear, maturity: lastYear, items: [line('Ancien', 1, 500)] });
    expect((await owner.rest('GET', '/api/customers?unpaid=true')).body).toMatchObject({ total: 1, data: [{ id: customerId }] });

    const { session: stranger } = await registered(server.url);
    await stranger.rest('POST', '/api/customers', { name: 'Sans facture' });
    expect((await stranger.rest('GET', '/api/customers?unpaid=true')).body).toEqual({ total: 0, data: [] });
  });

  it('refuses a value other than true or false with a French 400', async () => {
    const { session } = await registered(server.url);
    for (const value of ['oui', '1', 'TRUE']) {
      const answer = await session.rest('GET', `/api/customers?unpaid=${value}`);
      expect(answer.status, value).toBe(400);
      expect(JSON.stringify(answer.body.messages)).toContain('unpaid : true ou false');
    }
  });
});
