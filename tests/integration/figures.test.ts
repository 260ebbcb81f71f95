import type { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/caller';
import { inProcess, line } from '../helpers/documents';
import { defined } from '../../src/shared/defined';
import { parisToday } from '../../src/shared/paris-date';

// Figures are service logic: called in process (createCaller, real SQLite); their REST doors are tested with the others.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

// The app's day is Paris's: a UTC date would put the invoice and its credit note in two months around midnight.
const today = parisToday();
const longAgo = `${Number(today.slice(0, 4)) - 1}-01-15`;

describe('figures: Vue d’ensemble and the customer page', () => {
  it('sums turnover, receivables and overdue amounts from issued documents only', async () => {
    const { caller } = await app.signUp();
    const { customerId } = await inProcess.readyToInvoice(caller);
    const old = await inProcess.issued(caller, {
      customer_id: customerId,
      date: longAgo,
      maturity: longAgo,
      items: [line('Ancien', 1, 500)],
    }); // 600 TTC, overdue
    const recent = await inProcess.issued(caller, { customer_id: customerId, date: today, items: [line('Récent', 2, 100)] }); // 200 HT, 240 TTC
    await inProcess.draft(caller, { customer_id: customerId, date: today, items: [line('Brouillon', 1, 9999)] });
    await inProcess.issued(caller, { type: 'estimate', customer_id: customerId, date: today, items: [line('Devis', 1, 7777)] });
    await caller.documents.recordPayment({ id: recent.id, data: { date: today, amount: 40 } });
    const credit = await caller.documents.convert({
      id: recent.id,
      type: 'credit',
      lines: [{ id: defined(recent.items[0]?.id), quantity: 1 }],
    });
    await caller.documents.issue({ id: credit.data.id });

    const figures = await caller.figures.dashboard();
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

    const customer = await caller.figures.customer({ id: customerId });
    expect(customer.data).toEqual([{ currency: 'EUR', refunded: 0, credit: 0, billed: 720, paid: 40, outstanding: 680, documents: 3 }]);
    const stranger = (await app.signUp()).caller;
    await expect(stranger.figures.customer({ id: customerId })).rejects.toMatchObject({ code: 'NOT_FOUND' } satisfies Partial<TRPCError>);
  });
});
