import { expect } from 'vitest';
import type { Session } from './clients';
import { line, readyToInvoice } from './documents';

/**
 * The hand-computed year of the VAT return's tests (tests/integration/vat-return.test.ts checks every line of it to the
 * cent, the browser test shows one of its months): what each month holds and what each CA3 line must say is written
 * above seedVatYear.
 */

async function ok(session: Session, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const answer = await session.rest(method, path, body);
  expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

async function issueOn(session: Session, id: number, date: string) {
  const draft = await ok(session, 'GET', `/api/documents/${id}`);
  // A credit note has no due date; an invoice is due 30 days after its date.
  const maturity = draft.type === 'credit' ? null : new Date(Date.parse(`${date}T12:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
  await ok(session, 'PUT', `/api/documents/${id}`, { ...draft, date, maturity });
  return (await ok(session, 'POST', `/api/documents/${id}/issue`)).data;
}

async function invoice(session: Session, body: Record<string, unknown>) {
  const created = (await ok(session, 'POST', '/api/documents', body)).data;
  return (await ok(session, 'POST', `/api/documents/${created.id}/issue`)).data;
}

const goods = (item: string, quantity: number, price: number, rate = 20) => line(item, quantity, price, rate, { kind: 'goods' });
const untaxed = (item: string, price: number, kind: 'goods' | 'service') => ({ item, quantity: 1, unit_price: price, taxes: [], kind });

/**
 * A year of a small business on VAT on receipts (services), every figure computed by hand:
 * January  F1 to a French business: 10 bikes at 100 (goods) + a tune-up at 100 (service), 20 %: 1 100 HT, 220 VAT,
 *          1 320 TTC, unpaid. Expenses: goods 120 TTC (20 VAT) unpaid; fees 240 TTC (40 VAT) paid 5 February;
 *          office supplies 0,27 TTC (0,05 VAT) paid.
 *          → 08: 1 000 / 200 (the bikes; the tune-up not paid); 20: 20 + 0,05; 28: 179,95.
 * February F2 export of a machine to a Swiss company, 500 untaxed (E1); F3 audit for a German business, 300 untaxed
 *          (E2), and ovens delivered to it on the 12th, 400 untaxed (F2); F1 half paid (660) on the 15th: half of the
 *          tune-up, 50 / 10. The fees paid: 40 deductible.
 *          → 08: 50 / 10; 16: 10; 23: 40; 25: credit of 30.
 * March    AV1 credits 2 bikes of F1 (200 / 40 / 240) on the 5th; F1's rest (420) paid on the 20th: the tune-up all
 *          paid, 50 / 10 more; a 30 % deposit on a kitchen (goods, 1 000 HT) invoiced the 10th and received the 12th:
 *          300 / 60.  → 08: −200 + 50 + 300 = 150 / 30.
 * April    The kitchen's final invoice on the 15th: 1 000 / 200 less the deposit, 700 / 140; F5 on the 20th: a book
 *          at 5,5 % (goods, 100 / 5,50) and work at 10 % (service, 200 / 20) paid on the 25th.
 *          → 08: 700 / 140; 09: 100 / 5,50; 9B: 200 / 20; 28: 165,50.
 */
export async function seedVatYear(session: Session) {
  const { customerId } = await readyToInvoice(session);
  const swiss = (
    await ok(session, 'POST', '/api/customers', {
      name: 'Uhren AG',
      vat_number: 'CHE-123.456.789 TVA',
      address: { line1: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zurich', country: 'Suisse' },
    })
  ).data.id;
  const de = (
    await ok(session, 'POST', '/api/customers', {
      name: 'Bäckerei Müller GmbH',
      vat_number: 'DE123456789',
      address: { line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
    })
  ).data.id;
  const expense = (body: Record<string, unknown>) =>
    ok(session, 'POST', '/api/expenses', { supplier: 'Fournisseur', payment_method: 'transfer', ...body });

  const f1 = await invoice(session, {
    customer_id: customerId,
    date: '2025-01-10',
    items: [goods('Vélo', 10, 100), line('Réglage', 1, 100)],
  });
  await expense({
    date: '2025-01-12',
    supplier: 'Grossiste',
    category: 'achats',
    label: 'Pièces',
    amount: 120,
    vat: [{ rate: 20, amount: 20 }],
  });
  await expense({
    date: '2025-01-20',
    supplier: 'Cabinet Comptable',
    category: 'honoraires',
    label: 'Bilan',
    amount: 240,
    vat: [{ rate: 20, amount: 40 }],
    status: 'paid',
    paid_at: '2025-02-05',
  });
  await expense({
    date: '2025-01-25',
    supplier: 'Papeterie',
    category: 'fournitures_bureau',
    label: 'Trombones',
    amount: 0.27,
    vat: [{ rate: 20, amount: 0.05 }],
    status: 'paid',
  });

  await invoice(session, { customer_id: swiss, date: '2025-02-03', items: [untaxed('Machine', 500, 'goods')] });
  await invoice(session, { customer_id: de, date: '2025-02-10', items: [untaxed('Audit', 300, 'service')] });
  await invoice(session, { customer_id: de, date: '2025-02-12', items: [untaxed('Four', 400, 'goods')] });
  await ok(session, 'POST', `/api/documents/${f1.id}/payments`, { date: '2025-02-15', amount: 660 });

  const creditDraft = (
    await ok(session, 'POST', `/api/documents/${f1.id}/convert`, { type: 'credit', lines: [{ id: f1.items[0].id, quantity: 2 }] })
  ).data;
  const credit = await issueOn(session, creditDraft.id, '2025-03-05');
  const estimate = await invoice(session, {
    type: 'estimate',
    customer_id: customerId,
    date: '2025-03-01',
    items: [goods('Cuisine', 1, 1000)],
  });
  const deposit = (await ok(session, 'POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 })).data;
  const depositInvoice = await issueOn(session, deposit.id, '2025-03-10');
  await ok(session, 'POST', `/api/documents/${depositInvoice.id}/payments`, { date: '2025-03-12', amount: 360 });
  await ok(session, 'POST', `/api/documents/${f1.id}/payments`, { date: '2025-03-20', amount: 420 });

  const final = (await ok(session, 'POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).data;
  await issueOn(session, final.id, '2025-04-15');
  const f5 = await invoice(session, {
    customer_id: customerId,
    date: '2025-04-20',
    items: [goods('Livre', 1, 100, 5.5), line('Travaux', 1, 200, 10)],
  });
  await ok(session, 'POST', `/api/documents/${f5.id}/payments`, { date: '2025-04-25', amount: 325.5 });
  return { f1, credit, depositInvoice };
}
