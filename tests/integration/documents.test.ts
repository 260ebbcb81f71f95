import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { parisToday } from '../../src/shared/paris-date';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The hand-computed example of the documents issue: three lines, three rates, line discounts, a document discount. */
const example = (customerId: number) => ({
  type: 'invoice',
  customer_id: customerId,
  date: '2026-11-02',
  discount_type: 'percent',
  discount_value: 5,
  items: [
    line('Conseil', 3, 150, 20, { unit: 'h', discount_type: 'percent', discount_value: 10 }),
    line('Formation', 2, 87.5, 10),
    line('Livre', 4, 12.35, 5.5, { discount_type: 'amount', discount_value: 2.4, kind: 'goods' }),
  ],
  // Computed fields sent by a client are ignored.
  total: 1,
  subtotal: 1,
});

describe('documents: drafts, totals, issue, delete (REST and tRPC)', () => {
  it('recomputes every total on the server, ignoring those sent, and answers CONTRACT.md’s shapes', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const created = await session.rest('POST', '/api/documents', example(customerId));
    expect(created.status).toBe(201);
    expect(created.body.messages).toBe('Ajouté avec succès');
    const doc = created.body.data;
    // 405 + 175 + 47 = 627; −5 % = −31,35 spread 20,25 / 8,75 / 2,35; VAT 76,95 + 16,63 + 2,46 = 96,04.
    expect(doc).toMatchObject({
      status: 'draft',
      number: null,
      subtotal: 627,
      discount: 31.35,
      tax: 96.04,
      total: 691.69,
      amount_due: 691.69,
      maturity: '2026-12-02',
    });
    expect(doc.taxes).toEqual([
      { title: 'TVA 5,5 %', rate: 5.5, taxable_amount: 44.65, amount: 2.46 },
      { title: 'TVA 10 %', rate: 10, taxable_amount: 166.25, amount: 16.63 },
      { title: 'TVA 20 %', rate: 20, taxable_amount: 384.75, amount: 76.95 },
    ]);
    expect(doc.items[0]).toMatchObject({ item: 'Conseil', unit: 'h', subtotal: 450, discount: 45, gross_total: 405, net_price: 135 });
    expect(doc.items[2]).toMatchObject({ gross_total: 47, kind: 'goods' });
    expect(doc.customer).toMatchObject({ name: 'Boulangerie Martin', business_id: '732829320' });
    expect(doc.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const typed = await session.trpc().documents.get.query({ id: doc.id });
    expect(typed.total).toBe(691.69);
    const rest = await session.rest('GET', `/api/documents/${doc.id}`);
    expect(rest.body.total).toBe(691.69);

    const updated = await session.rest('PUT', `/api/documents/${doc.id}`, { ...example(customerId), discount_value: 0, shipping: 12.5 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ messages: 'Mis à jour avec succès', data: { subtotal: 627, discount: 0, shipping: 12.5 } });
  });

  it('gives numbers only at issue, in a gapless series; an issued invoice is neither edited nor deleted', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const first = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    const second = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    expect((await session.rest('DELETE', `/api/documents/${second.id}`)).body).toEqual({ messages: 'Supprimé avec succès' });

    const issue = await session.rest('POST', `/api/documents/${first.id}/issue`);
    expect(issue.status).toBe(200);
    expect(issue.body.data).toMatchObject({ number: 'F2026-0001', status: owedStatus(issue.body.data), amount_due: 1200 });
    expect(issue.body.data.legal_mentions).toEqual(
      expect.arrayContaining([
        "Pas d'escompte pour paiement anticipé",
        'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40,00 €',
      ]),
    );
    expect(issue.body.data.organization.identity).toEqual(expect.arrayContaining(['SIRET 55203253400646', 'RCS Paris']));
    expect((await session.rest('POST', `/api/documents/${first.id}/issue`)).status).toBe(409);

    const edit = await session.rest('PUT', `/api/documents/${first.id}`, {
      date: '2026-11-02',
      customer_id: customerId,
      items: [line('Audit', 1, 1)],
    });
    expect(edit.status).toBe(409);
    expect(edit.body.messages).toMatch(/avoir/);
    const remove = await session.rest('DELETE', `/api/documents/${first.id}`);
    expect(remove.status).toBe(409);

    const third = await issued(session, { customer_id: customerId, items: [line('Suivi', 1, 100)] });
    expect(third.number).toBe('F2026-0002');
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Suivi', 1, 100)] });
    expect(estimate).toMatchObject({ number: 'D2026-0001', status: 'pending' });
    // Other types may be deleted after issue, with the confirmation the screen asks for.
    expect((await session.rest('DELETE', `/api/documents/${estimate.id}`)).status).toBe(200);
  });

  it('keeps the customer as issued: editing the customer later never rewrites the invoice', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const customer = (await session.rest('GET', `/api/customers/${customerId}`)).body;
    await session.rest('PUT', `/api/customers/${customerId}`, {
      ...customer,
      name: 'Boulangerie Martin & Fils',
      address: { ...customer.address, city: 'Villeurbanne' },
    });
    const again = (await session.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect(again.customer).toMatchObject({ name: 'Boulangerie Martin', address: { city: 'Lyon' } });
  });

  it('refuses to issue an invoice without its mandatory mentions, listing each one', async () => {
    const { session } = await registered(server.url);
    const customer = await session.rest('POST', '/api/customers', { name: 'Client sans SIREN', address: { city: 'Paris' } });
    const doc = await draft(session, { customer_id: customer.body.data.id, items: [line('', 1, 10)] });
    const answer = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(answer.status).toBe(400);
    const messages: string[] = answer.body.messages;
    for (const missing of [
      'la désignation de chaque ligne',
      'l’adresse de votre entreprise',
      'le SIREN ou SIRET de votre entreprise',
      'la forme juridique',
      'le numéro de TVA intracommunautaire',
      'l’adresse de facturation du client',
      'le SIREN du client',
    ]) {
      expect(
        messages.some((m) => m.includes(missing)),
        missing,
      ).toBe(true);
    }
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body).toMatchObject({ status: 'draft', number: null });
  });

  it('50 concurrent issues give the numbers 1 to 50, no gap and no duplicate', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(session, { customer_id: customerId, items: [line(`Ligne ${i}`, 1, 10 + i)] }));
    const answers = await Promise.all(drafts.map((d) => session.rest('POST', `/api/documents/${d.id}/issue`)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const numbers = answers.map((a) => a.body.data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `F2026-${String(i + 1).padStart(4, '0')}`));
  });

  it('refuses an invoice dated before the last one issued (chronological numbering)', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await issued(session, { customer_id: customerId, date: '2026-11-10', items: [line('A', 1, 10)] });
    const older = await draft(session, { customer_id: customerId, date: '2026-11-01', items: [line('B', 1, 10)] });
    const answer = await session.rest('POST', `/api/documents/${older.id}/issue`);
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toMatch(/chronologique/);
  });
});

describe('documents: status machine and payments', () => {
  it('moves estimates along the table and refuses every other transition with a 409', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Devis', 1, 100)] });
    const to = (id: number, status: string) => session.rest('POST', `/api/documents/${id}/status`, { status });
    expect((await to(estimate.id, 'done')).status).toBe(409);
    expect((await to(estimate.id, 'accepted')).body.data.status).toBe('accepted');
    const refused = await to(estimate.id, 'refused');
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe('Passage impossible de « Accepté » à « Refusé » pour un devis');
    const invoice = await issued(session, { customer_id: customerId, items: [line('Facture', 1, 100)] });
    expect((await to(invoice.id, 'done')).status).toBe(409);
    const order = await issued(session, { type: 'order', customer_id: customerId, items: [line('Commande', 1, 100)] });
    expect((await to(order.id, 'done')).body.data.status).toBe('done');
    expect((await to(order.id, 'nonsense')).status).toBe(400);
  });

  it('records a partial then a full payment; refuses an overpayment; status follows; overdue is derived', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, {
      customer_id: customerId,
      date: '2026-01-05',
      maturity: '2026-02-04',
      items: [line('Audit', 1, 1000)],
    });
    expect(invoice.status).toBe('overdue');
    expect((await session.rest('GET', '/api/documents?type=invoice&status=overdue')).body.total).toBe(1);

    const partial = await session.rest('POST', `/api/documents/${invoice.id}/payments`, {
      date: '2026-02-10',
      amount: 200,
      method: 'transfer',
      reference: 'VIR-1',
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ messages: 'Ajouté avec succès', data: { amount: 200, method: 'transfer' } });
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({
      stored_status: 'partial',
      paid: 200,
      amount_due: 1000,
    });

    const over = await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-02-11', amount: 1000.01 });
    expect(over.status).toBe(409);
    expect(over.body.messages).toBe('Le paiement dépasse le reste à payer (1000,00\u00a0€)');

    const rest = await session
      .trpc()
      .documents.recordPayment.mutate({ id: invoice.id, data: { date: '2026-02-12', amount: 1000, method: 'check' } });
    expect(rest.data.amount).toBe(1000);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ status: 'paid', amount_due: 0 });
    const list = await session.rest('GET', `/api/documents/${invoice.id}/payments`);
    expect(list.body.total).toBe(2);

    const removed = await session.rest('DELETE', `/api/documents/${invoice.id}/payments/${partial.body.data.id}`);
    expect(removed.body.messages).toBe('Paiement annulé par une contre-écriture');
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ stored_status: 'partial', amount_due: 200 });
    const edited = await session.rest('PUT', `/api/documents/${invoice.id}/payments/${rest.data.id}`, {
      date: '2026-02-12',
      amount: 1200,
      method: 'card',
    });
    expect(edited.status).toBe(200);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ status: 'paid' });

    for (const [body, message] of [
      [{ date: '2026-02-12', amount: -5 }, 'Le montant du paiement doit être positif'],
      [{ date: '12/02/2026', amount: 5 }, 'Date du paiement attendue au format AAAA-MM-JJ'],
      [{ date: '2026-02-12', amount: 5, method: 'bitcoin' }, 'Moyen de paiement : virement, chèque, carte ou espèces'],
    ] as const) {
      const bad = await session.rest('POST', `/api/documents/${invoice.id}/payments`, body);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body.messages)).toContain(message);
    }
    const draftInvoice = await draft(session, { customer_id: customerId, items: [line('X', 1, 10)] });
    expect((await session.rest('POST', `/api/documents/${draftInvoice.id}/payments`, { date: '2026-02-12', amount: 5 })).status).toBe(409);
  });
});

describe('documents: conversions, credit notes, deposits', () => {
  it('converts an estimate into an invoice linked both ways; refuses conversions outside the table', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 5000)] });
    const draftEstimate = await draft(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 5000)] });
    expect((await session.rest('POST', `/api/documents/${draftEstimate.id}/convert`, { type: 'invoice' })).status).toBe(409);

    const converted = await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    expect(converted.status).toBe(201);
    const invoice = converted.body.data;
    expect(invoice).toMatchObject({ type: 'invoice', status: 'draft', total: 6000, origin: { id: estimate.id, number: 'D2026-0001' } });
    const origin = (await session.rest('GET', `/api/documents/${estimate.id}`)).body;
    expect(origin.status).toBe('converted');
    expect(origin.linked.map((l: { id: number }) => l.id)).toEqual([invoice.id]);
    expect((await session.rest('DELETE', `/api/documents/${estimate.id}`)).status).toBe(409);

    const order = await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'order' });
    expect(order.body.data.type).toBe('order');
    const issuedInvoice = await session.rest('POST', `/api/documents/${invoice.id}/issue`);
    expect((await session.rest('POST', `/api/documents/${issuedInvoice.body.data.id}/convert`, { type: 'order' })).status).toBe(409);

    const copy = await session.rest('POST', `/api/documents/${issuedInvoice.body.data.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ type: 'invoice', status: 'draft', number: null, total: 6000, origin: null });
  });

  it('credits chosen lines, then the rest, which cancels the invoice; never more than the invoice', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Chaises', 10, 50), line('Table', 1, 300)] });
    expect(invoice.total).toBe(960);
    const chairs = invoice.items[0].id;
    const partial = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: chairs, quantity: 2 }],
    });
    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({ type: 'credit', total: 120, corrects: { id: invoice.id, number: 'F2026-0001' } });
    expect(partial.body.data.terms).toContain('Avoir sur la facture n° F2026-0001');
    const tooMany = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: chairs, quantity: 11 }],
    });
    expect(tooMany.status).toBe(400);

    // The credit note is dated today (a copy never goes back in time): its number carries this year.
    const credit = await session.rest('POST', `/api/documents/${partial.body.data.id}/issue`);
    expect(credit.body.data).toMatchObject({ number: `AV${parisToday().slice(0, 4)}-0001`, status: 'pending' });
    expect(credit.body.data.legal_mentions).toContain('Avoir se rapportant à la facture n° F2026-0001');
    const credited = (await session.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect(credited).toMatchObject({
      status: owedStatus(credited),
      credited: 120,
      amount_due: 840,
    });

    // Without lines after a credit note: the balance, 840,00 exactly.
    const rest = await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' });
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ type: 'credit', total: 840 });
    await session.rest('POST', `/api/documents/${rest.body.data.id}/issue`);
    expect((await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).status).toBe(409);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ status: 'canceled', amount_due: 0 });
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-20', amount: 1 })).status).toBe(409);
  });

  it('bills a 30 % deposit on an estimate in the invoice series, then deducts it from the final invoice', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, {
      type: 'estimate',
      customer_id: customerId,
      items: [line('Pose', 1, 1000, 20), line('Fournitures', 1, 500, 5.5, { kind: 'goods' })],
    });
    expect(estimate.total).toBe(1727.5);
    const deposit = await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
    expect(deposit.status).toBe(201);
    // 30 % of 1 727,50 = 518,25 TTC, split by rate in proportion: 360 (1 200 TTC at 20 %) + 158,25 (527,50 at 5,5 %).
    expect(deposit.body.data).toMatchObject({ type: 'invoice', kind: 'deposit', total: 518.25, price_mode: 'ttc' });
    expect(deposit.body.data.items.map((i: { unit_price: number }) => i.unit_price)).toEqual([158.25, 360]);
    // Both invoices are dated today (a copy never goes back in time): their numbers carry this year.
    const series = `F${parisToday().slice(0, 4)}`;
    const issuedDeposit = await session.rest('POST', `/api/documents/${deposit.body.data.id}/issue`);
    expect(issuedDeposit.body.data.number).toBe(`${series}-0001`);
    expect((await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 80 })).status).toBe(409);
    expect((await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 10, amount: 5 })).status).toBe(400);

    const final = await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    expect(final.body.data).toMatchObject({ total: 1727.5, deposits: 518.25, amount_due: 1209.25 });
    expect(final.body.data.deposit_invoices).toEqual([
      { id: deposit.body.data.id, number: `${series}-0001`, date: expect.any(String), total: 518.25 },
    ]);
    const issuedFinal = await session.rest('POST', `/api/documents/${final.body.data.id}/issue`);
    expect(issuedFinal.body.data).toMatchObject({ number: `${series}-0002`, amount_due: 1209.25 });
  });
});

describe('documents: the list', () => {
  it('filters by type, status, search, period, amounts and customer; sorts; paginates', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const other = (
      await session.rest('POST', '/api/customers', {
        name: 'Café du Port',
        type: 'individual',
        address: { line1: '1 quai', postal_code: '13002', city: 'Marseille' },
      })
    ).body.data.id;
    // « L'an dernier » is read from today: the draft of 60 always falls in it, the others from the year 2027 on.
    const lastYear = String(Number(parisToday().slice(0, 4)) - 1);
    const dates = ['2026-11-03', '2026-11-04', `${lastYear}-06-01`, '2026-10-01'];
    await issued(session, { customer_id: customerId, date: dates[0], items: [line('A', 1, 100)] }); // 120
    await issued(session, { customer_id: other, date: dates[1], items: [line('B', 2, 100)] }); // 240
    await draft(session, { customer_id: other, date: dates[2], items: [line('C', 1, 50)] }); // 60
    await issued(session, { type: 'estimate', customer_id: customerId, date: dates[3], items: [line('D', 1, 1000)] }); // 1200

    const q = async (query: string) => (await session.rest('GET', `/api/documents?${query}`)).body;
    expect((await q('')).total).toBe(4);
    expect((await q('type=invoice')).total).toBe(3);
    expect((await q('type=invoice&status=draft')).data.map((d: { total: number }) => d.total)).toEqual([60]);
    expect((await q('type=invoice&status=open')).total).toBe(2);
    expect((await q('search=port')).total).toBe(2);
    expect((await q('search=F2026-0002')).data[0].customer_name).toBe('Café du Port');
    expect((await q('search=240')).data[0].number).toBe('F2026-0002');
    expect((await q('period=custom&from=2026-11-01&to=2026-11-30')).total).toBe(2);
    expect((await q('period=last_year')).total).toBe(dates.filter((date) => date.startsWith(lastYear)).length);
    expect((await q('min_amount=100&max_amount=300')).total).toBe(2);
    expect((await q(`customer=${customerId}`)).total).toBe(2);
    expect((await q('sort_by=total&sort_order=asc')).data.map((d: { total: number }) => d.total)).toEqual([60, 120, 240, 1200]);
    expect((await q('sort_by=customer&sort_order=asc&type=invoice')).data[0].customer_name).toBe('Boulangerie Martin');
    const page = await q('per_page=3&page=2&sort_by=date&sort_order=desc');
    expect(page).toMatchObject({ total: 4 });
    expect(page.data.map((d: { date: string }) => d.date)).toEqual([dates[2]]);
    const bad = await session.rest('GET', '/api/documents?sort_by=prix');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.messages)).toContain('Tri inconnu');
  });
});

describe('documents: the list at scale', () => {
  it('searches the full-text index: accents folded, word prefixes, number, amount typed the French way', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const cafe = (
      await session.rest('POST', '/api/customers', {
        name: 'Café Électrique',
        type: 'individual',
        address: { line1: '1 quai', postal_code: '13002', city: 'Marseille' },
      })
    ).body.data.id;
    const other = (
      await session.rest('POST', '/api/customers', {
        name: 'Boucherie Sanzot',
        type: 'individual',
        address: { line1: '1 quai', postal_code: '13002', city: 'Marseille' },
      })
    ).body.data.id;
    const first = await issued(session, { customer_id: cafe, date: '2026-11-03', items: [line('A', 1, 1000)] }); // 1 200
    const second = await issued(session, { customer_id: other, date: '2026-11-04', items: [line('B', 1, 1293.5)] }); // 1 552,20
    await draft(session, { customer_id: other, date: '2026-11-05', items: [line('C', 1, 10)] }); // 12

    const ids = async (search: string) =>
      (await session.rest('GET', `/api/documents?search=${encodeURIComponent(search)}`)).body.data.map((d: { id: number }) => d.id);
    expect(await ids('cafe')).toEqual([first.id]); // no accent typed
    expect(await ids('ÉLEC')).toEqual([first.id]); // a word's prefix, any case
    expect(await ids('cafe elec')).toEqual([first.id]); // every word must match
    expect(await ids('cafe sanzot')).toEqual([]);
    expect(await ids('sanz')).toHaveLength(2); // the issued invoice and the draft
    expect(await ids(second.number)).toEqual([second.id]);
    // Any part of a number, not only a word's start ('F2026-0002' holds the word '0002', not '002').
    expect(await ids(second.number.slice(-3))).toEqual([second.id]);
    expect((await ids(first.number.slice(1, -1))).sort()).toEqual([first.id, second.id].sort());
    expect(await ids('1 200,00')).toEqual([first.id]); // the total, typed as a French amount
    expect(await ids('1552,2 €')).toEqual([second.id]);
    expect(await ids('1200')).toEqual([first.id]);
    expect(await ids('"*')).toEqual([]); // FTS syntax is only text
    const stranger = (await registered(server.url)).session;
    expect((await stranger.rest('GET', '/api/documents?search=cafe')).body).toEqual({ total: 0, data: [] });
  });

  it('answers the true total on every page, counted or told by the page itself', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    for (const day of ['01', '02', '03', '04', '05'])
      await issued(session, { customer_id: customerId, date: `2026-10-${day}`, items: [line('A', 1, 100)] });
    const page = async (query: string) => {
      const body = (await session.rest('GET', `/api/documents?per_page=2&${query}`)).body;
      return { total: body.total, dates: body.data.map((d: { date: string }) => d.date) };
    };
    expect(await page('page=1')).toEqual({ total: 5, dates: ['2026-10-05', '2026-10-04'] }); // full page: counted
    expect(await page('page=3')).toEqual({ total: 5, dates: ['2026-10-01'] }); // the last page tells it
    expect(await page('page=4')).toEqual({ total: 5, dates: [] }); // past the end: counted
    expect(await page('page=1&min_amount=1000')).toEqual({ total: 0, dates: [] });
    expect(await page('page=1&search=boulangerie')).toMatchObject({ total: 5 });
    expect(await page('page=3&sort_order=asc')).toEqual({ total: 5, dates: ['2026-10-05'] });
  });
});

describe('documents: isolation and bad input', () => {
  it('answers 404 for another organisation’s document on every path', async () => {
    const owner = await registered(server.url);
    const { customerId } = await readyToInvoice(owner.session);
    const invoice = await issued(owner.session, { customer_id: customerId, items: [line('Secret', 1, 100)] });
    const stranger = (await registered(server.url)).session;
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/documents/${invoice.id}`],
      ['PUT', `/api/documents/${invoice.id}`, { date: '2026-11-02' }],
      ['DELETE', `/api/documents/${invoice.id}`],
      ['POST', `/api/documents/${invoice.id}/issue`],
      ['POST', `/api/documents/${invoice.id}/status`, { status: 'done' }],
      ['POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' }],
      ['POST', `/api/documents/${invoice.id}/duplicate`],
      ['POST', `/api/documents/${invoice.id}/sent`],
      ['GET', `/api/documents/${invoice.id}/payments`],
      ['POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-02', amount: 1 }],
    ];
    for (const [method, path, body] of paths) {
      const answer = await stranger.rest(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.messages).toBe('Document introuvable');
    }
    expect((await stranger.rest('GET', '/api/documents')).body.total).toBe(0);
    // Nor may a document name another organisation's customer.
    const foreign = await stranger.rest('POST', '/api/documents', { date: '2026-11-02', customer_id: customerId });
    expect(foreign.status).toBe(400);
    expect(foreign.body.messages).toBe('Client : introuvable');
  });

  it('names each bad field in French and writes nothing', async () => {
    const { session } = await registered(server.url);
    const cases: [unknown, string][] = [
      [{ date: '02/11/2026' }, 'Date attendue au format AAAA-MM-JJ'],
      [{ date: '2026-11-02', items: [{ item: 'x', unit_price: 'cher' }] }, 'Prix unitaire : un nombre est attendu'],
      [{ date: '2026-11-02', items: [{ item: 'x', quantity: 1.00001 }] }, 'Quantité : 4 décimales au plus'],
      [{ date: '2026-11-02', discount_value: -3 }, 'Remise : elle ne peut être négative'],
      [{ date: '2026-11-02', type: 'facture' }, 'Type de document inconnu'],
      [{ date: '2026-11-02', maturity: '2026-10-01' }, 'Échéance : elle ne peut précéder la date du document'],
    ];
    for (const [body, message] of cases) {
      const answer = await session.rest('POST', '/api/documents', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body.messages)).toContain(message);
    }
    const malformed = await session.rest('POST', '/api/documents', '{"date": ');
    expect(malformed.status).toBe(400);
    expect((await session.rest('GET', '/api/documents')).body.total).toBe(0);
  });
});
