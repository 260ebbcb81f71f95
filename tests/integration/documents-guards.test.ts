import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const tomorrow = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

describe('documents: what concurrency and odd inputs must never break', () => {
  it('issues a draft once when asked twice at the same moment, and never leaves a gap when a delete races an issue', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const answers = await Promise.all([
      session.rest('POST', `/api/documents/${doc.id}/issue`),
      session.rest('POST', `/api/documents/${doc.id}/issue`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(
      defined(
        answers.find((a) => a.status === 200),
        'answers.find((a) => a.status === 200)',
      ).body.data.number,
    ).toBe('F2026-0001');

    const raced = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const [removed, issue] = await Promise.all([
      session.rest('DELETE', `/api/documents/${raced.id}`),
      session.rest('POST', `/api/documents/${raced.id}/issue`),
    ]);
    expect([removed.status, issue.status].sort()).toEqual(expect.arrayContaining([200]));
    const next = await issued(session, { customer_id: customerId, items: [line('Suivi', 1, 100)] });
    // Whichever won, the series is gapless: the next number follows the last one issued.
    expect(next.number).toBe(issue.status === 200 ? 'F2026-0003' : 'F2026-0002');
  });

  it('refuses an invoice dated in the future, a payment finer than the currency, and a negative invoice', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const future = await draft(session, { customer_id: customerId, date: tomorrow(), items: [line('Audit', 1, 100)] });
    const answer = await session.rest('POST', `/api/documents/${future.id}/issue`);
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toMatch(/date future/);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const fine = await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 33.3333 });
    expect(fine.status).toBe(400);
    expect(fine.body.messages).toBe('Montant du paiement : 2 décimales au plus en EUR');
    const negative = await draft(session, { customer_id: customerId, items: [line('Reprise', -1, 100)] });
    expect((await session.rest('POST', `/api/documents/${negative.id}/issue`)).status).toBe(409);
    const huge = await session.rest('POST', '/api/documents', { date: '2026-11-02', items: [line('Trop', 1e9, 1e12)] });
    expect(huge.status).toBe(400);
    expect(huge.body.messages).toMatch(/100 milliards/);
  });

  it('deducts a deposit from one final invoice only, and refuses a deposit once the final invoice exists', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 1000)] });
    const deposit = (await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { amount: 600 })).body.data;
    const waiting = await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    expect(waiting.status).toBe(409); // the deposit is still a draft
    await session.rest('POST', `/api/documents/${deposit.id}/issue`);
    const first = (await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    const second = (await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    expect(first).toMatchObject({ deposits: 600, amount_due: 600 });
    expect(second).toMatchObject({ deposits: 0, amount_due: 1200 });
    const late = await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { amount: 100 });
    expect(late.status).toBe(409);
    expect(late.body.messages).toMatch(/facture finale existe déjà/);
    // Deleting the first draft releases the deposit for the next final invoice.
    await session.rest('DELETE', `/api/documents/${first.id}`);
    expect((await session.rest('GET', `/api/documents/${second.id}`)).body.deposits).toBe(0);
    const third = (await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    expect(third.deposits).toBe(600);
    // A final invoice is credited for what it bills itself: its total less the deposits.
    const final = (await session.rest('POST', `/api/documents/${third.id}/issue`)).body.data;
    const credit = await session.rest('POST', `/api/documents/${final.id}/convert`, { type: 'credit' });
    expect(credit.status).toBe(409);
  });

  it('credits a fixed discount in proportion to the quantities credited', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, {
      customer_id: customerId,
      discount_type: 'amount',
      discount_value: 50,
      items: [line('Chaises', 10, 100, 20, { discount_type: 'amount', discount_value: 200 })],
    });
    // 1 000 − 200 = 800; − 50 = 750 HT; 900 TTC.
    expect(invoice.total).toBe(900);
    const half = (
      await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
        type: 'credit',
        lines: [{ id: invoice.items[0].id, quantity: 5 }],
      })
    ).body.data;
    // 500 − 100 = 400; − 25 = 375 HT; 450 TTC: exactly half.
    expect(half.total).toBe(450);
    await session.rest('POST', `/api/documents/${half.id}/issue`);
    const rest = (
      await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
        type: 'credit',
        lines: [{ id: invoice.items[0].id, quantity: 5 }],
      })
    ).body.data;
    await session.rest('POST', `/api/documents/${rest.id}/issue`);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ status: 'canceled', amount_due: 0 });
  });

  it('keeps a credit note on its invoice: its customer and currency do not change', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const credit = (await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    const moved = await session.rest('PUT', `/api/documents/${credit.id}`, { ...credit, currency: 'JPY' });
    expect(moved.status).toBe(400);
    expect(moved.body.messages).toMatch(/Devise/);
  });

  it('keeps the sale date when it differs from the issue date, and gives a credit note no due date nor terms', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const same = await draft(session, {
      customer_id: customerId,
      sale_date: '2026-11-02',
      condition: 'Virement à 30 jours',
      items: [line('Audit', 1, 100)],
    });
    expect(same.sale_date).toBeNull();
    const invoice = await issued(session, {
      customer_id: customerId,
      sale_date: '2026-10-28',
      condition: 'Virement à 30 jours',
      items: [line('Audit', 1, 100)],
    });
    expect(invoice.sale_date).toBe('2026-10-28');
    expect((await session.rest('GET', `/api/share/${invoice.uuid}`)).body.document.sale_date).toBe('2026-10-28');
    const credit = (await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    expect(credit).toMatchObject({ maturity: null, condition: '' });
    const bad = await session.rest('POST', '/api/documents', { date: '2026-11-02', sale_date: '28/10/2026' });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toBe('Date de la vente : date attendue au format AAAA-MM-JJ');
  });

  it('bills only in the currencies enabled in Paramètres → Devises', async () => {
    const { session } = await registered(server.url);
    const refused = await session.rest('POST', '/api/customers', { name: 'Acme Inc.', currency: 'USD' });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe('Devise : USD n’est pas activée, ajoutez-la d’abord dans Paramètres → Devises');
    expect((await session.rest('POST', '/api/documents', { date: '2026-11-02', currency: 'USD' })).status).toBe(400);
    expect((await session.rest('POST', '/api/currencies', { code: 'USD', rate: 1.085 })).status).toBe(201);
    expect((await session.rest('POST', '/api/customers', { name: 'Acme Inc.', currency: 'USD' })).status).toBe(201);
    expect((await session.rest('POST', '/api/documents', { date: '2026-11-02', currency: 'USD' })).status).toBe(201);
  });

  it('asks why a line carries no VAT before issuing, and prints the answer', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const body = { customer_id: customerId, items: [line('Formation professionnelle', 1, 800, 0)] };
    const doc = await draft(session, body);
    const refused = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.messages)).toContain('la raison de l’exonération des lignes sans TVA');
    await session.rest('PUT', `/api/documents/${doc.id}`, {
      date: '2026-11-02',
      ...body,
      vat_exemption: 'Exonération de TVA, art. 261-4-4° du CGI',
    });
    const answer = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.legal_mentions).toContain('Exonération de TVA, art. 261-4-4° du CGI');
  });
});
