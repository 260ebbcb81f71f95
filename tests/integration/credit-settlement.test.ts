import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

async function get(session: Session, id: number) {
  return (await session.rest('GET', `/api/documents/${id}`)).body;
}
async function creditOn(session: Session, invoiceId: number, body: Record<string, unknown> = {}) {
  const created = await session.rest('POST', `/api/documents/${invoiceId}/convert`, { type: 'credit', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const answer = await session.rest('POST', `/api/documents/${created.body.data.id}/issue`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

describe('credit notes that settle', () => {
  it('on a paid invoice: never a negative amount due; set against the other open invoice, then refunded; the customer adds up', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const paid = await issued(session, { customer_id: customerId, date: today, items: [line('Chaises', 2, 100), line('Table', 1, 100)] });
    expect(paid.total).toBe(360);
    expect((await session.rest('POST', `/api/documents/${paid.id}/payments`, { date: today, amount: 360 })).status).toBe(201);
    const open = await issued(session, { customer_id: customerId, date: today, items: [line('Pose', 1, 50)] });
    expect(open.total).toBe(60);

    // 1 chair credited (120,00): nothing is open on the paid invoice, 60,00 goes to the open one, 60,00 is left.
    const credit = await creditOn(session, paid.id, { lines: [{ id: paid.items[0].id, quantity: 1 }] });
    expect(credit.total).toBe(120);
    expect(await get(session, paid.id)).toMatchObject({ status: 'paid', credited: 0, amount_due: 0 });
    expect(await get(session, open.id)).toMatchObject({ credited: 60, amount_due: 0 });
    expect((await get(session, credit.id)).settlement).toEqual({
      applied: [{ invoice_id: open.id, number: open.number, amount: 60, date: credit.date }],
      refunds: [],
      available: 60,
    });

    // Refunds: never more than is left, in French; all that is left when no amount is given.
    const tooMuch = await session.rest('POST', `/api/documents/${credit.id}/refund`, { date: today, amount: 61, method: 'transfer' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.messages).toBe('Le remboursement (61,00) dépasse le crédit disponible de l’avoir (60,00)');
    const part = await session.rest('POST', `/api/documents/${credit.id}/refund`, { date: today, amount: 25, method: 'transfer' });
    expect(part.status).toBe(201);
    expect(part.body.data).toMatchObject({ refunds: [{ amount: 25, method: 'transfer', date: today }], available: 35 });
    const figuresBefore = (await session.rest('GET', `/api/customers/${customerId}/figures`)).body;
    expect(figuresBefore.data).toEqual([
      expect.objectContaining({ currency: 'EUR', billed: 300, paid: 360, refunded: 25, credit: 35, outstanding: 0 }),
    ]);
    const rest = await session.rest('POST', `/api/documents/${credit.id}/refund`, { date: today, method: 'check' });
    expect(rest.body.data.available).toBe(0);
    const none = await session.rest('POST', `/api/documents/${credit.id}/refund`, { date: today, method: 'check' });
    expect(none.status).toBe(409);
    expect(none.body.messages).toBe('Cet avoir n’a plus rien à rembourser : il est entièrement imputé ou remboursé');
    // Billed − received + refunded + credit available = still due: 300 − 360 + 60 + 0 = 0.
    const figures = (await session.rest('GET', `/api/customers/${customerId}/figures`)).body;
    expect(figures.data).toEqual([
      expect.objectContaining({ currency: 'EUR', billed: 300, paid: 360, refunded: 60, credit: 0, outstanding: 0 }),
    ]);
    const onInvoice = await session.rest('POST', `/api/documents/${paid.id}/refund`, { date: today, method: 'check' });
    expect(onInvoice.status).toBe(409);
    // The first issue of the server waits for the e-invoice validator's worker to start (seconds on a loaded machine).
  }, 120_000);

  it('a credit note by lines credits shipping; the balance credit note is exact to the cent where the remaining lines are not', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 2 × 10,05 at 10 % + shipping 5,00: 25,10 → VAT 2,51; total 27,61.
    const invoice = await issued(session, { customer_id: customerId, date: today, items: [line('Vis', 2, 10.05, 10)], shipping: 5 });
    expect(invoice.total).toBe(27.61);
    const tooMuchShipping = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 1 }],
      shipping: 6,
    });
    expect(tooMuchShipping.status).toBe(400);
    expect(tooMuchShipping.body.messages).toBe('Frais de port à créditer : entre 0 et 5,00');
    // 10,05 + 2,50 of shipping = 12,55 → VAT 1,255 → 1,26; 13,81.
    const first = await creditOn(session, invoice.id, { lines: [{ id: invoice.items[0].id, quantity: 1 }], shipping: 2.5 });
    expect(first).toMatchObject({ shipping: 2.5, total: 13.81 });
    // The same again by lines rounds up again: 13,81 + 13,81 = 27,62 > 27,61, refused.
    const byLines = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 1 }],
      shipping: 2.5,
    });
    expect(byLines.status).toBe(409);
    // The balance: 27,61 − 13,81 = 13,80 exactly, and the invoice is cancelled, nothing due.
    const balance = await creditOn(session, invoice.id);
    expect(balance.total).toBe(13.8);
    expect(balance.terms).toContain('Avoir du solde de la facture n°');
    expect(await get(session, invoice.id)).toMatchObject({ status: 'canceled', amount_due: 0 });
    expect((await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).status).toBe(409);
  });
});
