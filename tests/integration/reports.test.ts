import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { isPostgresUrl } from '../../src/server/db/dialect';
import { createMigrator, migrateToLatest } from '../../src/server/migrate';
import type { Database } from '../../src/server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';
import { copyTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Converted documents (credit note, deposit, final invoice) are dated the day they are made: every document of the
// turnover and VAT cases is dated today, and the period asked is today's year, so the figures hold any day.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = today.slice(0, 4);
const period = `from=${year}-01-01&to=${year}-12-31`;
const daysAgo = (n: number) => new Date(Date.parse(`${today}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

async function ok(session: Session, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const answer = await session.rest(method, path, body);
  expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** An organisation on the débits with every kind of document whose totals are known (see the comments). */
async function seededOnDebits() {
  const { session } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  await ok(session, 'PUT', '/api/organization', { ...sellerIdentity, vat_on_debits: true });
  const other = (await ok(session, 'POST', '/api/customers', { ...businessCustomer, name: 'Import Export Inc.' })).data.id;
  // 200 HT, 40 VAT, 240 TTC; 100 paid; then 1 of the 2 units credited: −100 HT, −20 VAT, −120 TTC.
  const i1 = await issued(session, { customer_id: customerId, date: today, items: [line('Conseil', 2, 100)] });
  await ok(session, 'POST', `/api/documents/${i1.id}/payments`, { date: today, amount: 100 });
  const credit = await ok(session, 'POST', `/api/documents/${i1.id}/convert`, {
    type: 'credit',
    lines: [{ id: i1.items[0].id, quantity: 1 }],
  });
  await ok(session, 'POST', `/api/documents/${credit.data.id}/issue`);
  // 50 HT at 5,5 %: 2,75 VAT, 52,75 TTC.
  await issued(session, { customer_id: customerId, date: today, items: [line('Livre', 1, 50, 5.5)] });
  // A 30 % deposit (300 HT, 60 VAT, 360 TTC) then the final invoice of 1 000 HT, 200 VAT, 1 200 TTC deducting it.
  const estimate = await issued(session, { type: 'estimate', customer_id: customerId, date: today, items: [line('Cuisine', 1, 1000)] });
  const deposit = await ok(session, 'POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
  await ok(session, 'POST', `/api/documents/${deposit.data.id}/issue`);
  const final = await ok(session, 'POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
  await ok(session, 'POST', `/api/documents/${final.data.id}/issue`);
  // 1 200 USD TTC at 1,085 USD per euro: 1 105,99 € TTC, 921,66 € HT, 184,33 € VAT; the rate moves afterwards.
  const currencies = await ok(session, 'POST', '/api/currencies', { code: 'USD', rate: '1.085' });
  await issued(session, { customer_id: other, currency: 'USD', date: today, items: [line('Export', 1, 1000)] });
  await ok(session, 'PUT', `/api/currencies/${currencies.data.id}`, { code: 'USD', rate: '1.2' });
  // 120 TTC of expenses with 20 of deductible VAT at 20 %.
  await ok(session, 'POST', '/api/expenses', {
    date: today,
    supplier: 'Bureau Vallée',
    category: 'fournitures',
    label: 'Papier',
    amount: 120,
    vat: [{ rate: 20, amount: 20 }],
    payment_method: 'card',
    status: 'paid',
  });
  return session;
}

describe('reports', () => {
  it('turnover, by customer, VAT on débits and margin: credit notes off, deposits once, USD at its rate of issue', async () => {
    const session = await seededOnDebits();

    const turnover = await ok(session, 'GET', `/api/reports/turnover?${period}&group=year`);
    // Invoices 200 + 50 + 1 000 (final, the deposit not counted) + 921,66 (USD) − 100 (credit note).
    expect(turnover).toEqual({ currency: 'EUR', data: [{ period: year, count: 5, net: 2071.66, tax: 407.08, total: 2478.74 }] });
    const monthly = await ok(session, 'GET', `/api/reports/turnover?${period}&group=month`);
    expect(monthly.data).toEqual([{ period: today.slice(0, 7), count: 5, net: 2071.66, tax: 407.08, total: 2478.74 }]);
    const quarter = `${year}-T${Math.ceil(Number(today.slice(5, 7)) / 3)}`;
    expect((await ok(session, 'GET', `/api/reports/turnover?${period}&group=quarter`)).data[0].period).toBe(quarter);
    const lastYear = `from=${Number(year) - 1}-01-01&to=${Number(year) - 1}-12-31`;
    expect((await ok(session, 'GET', `/api/reports/turnover?${lastYear}`)).data).toEqual([]);

    const customers = await ok(session, 'GET', `/api/reports/customers?${period}`);
    expect(customers).toMatchObject({
      currency: 'EUR',
      data: [
        { name: 'Boulangerie Martin', count: 4, net: 1150 },
        { name: 'Import Export Inc.', count: 1, net: 921.66 },
      ],
      rest: { count: 0, net: 0 },
    });

    const { lines, ...vat } = await ok(session, 'GET', `/api/reports/vat?${period}`);
    // 20 %: 40 − 20 (credit) + 60 (deposit: of a service, due when invoiced on the débits) + 200 (final) − 60
    // (deposit deducted) + 184,33 (USD).
    expect(vat).toEqual({
      currency: 'EUR',
      basis: 'debits',
      collected: [
        { rate: 20, base: 2021.66, amount: 404.33 },
        { rate: 5.5, base: 50, amount: 2.75 },
      ],
      deductible: [{ rate: 20, base: 100, amount: 20 }],
      due: 387.08,
      ca3: [
        { line: '08', label: 'Taux normal 20 %', base: 2021.66, amount: 404.33 },
        { line: '09', label: 'Taux réduit 5,5 %', base: 50, amount: 2.75 },
        { line: '16', label: 'Total de la TVA brute due', base: null, amount: 407.08 },
        { line: '20', label: 'Autres biens et services', base: null, amount: 20 },
        { line: '23', label: 'Total TVA déductible', base: null, amount: 20 },
        { line: '28', label: 'TVA nette due', base: null, amount: 387.08 },
      ],
    });
    // Cadre A: the bases of lines 08 and 09, the turnover of the year (all of it due on the débits).
    expect(lines.find((l: { code: string }) => l.code === 'A1')).toMatchObject({ base: 2071.66, tax: null });

    const margin = await ok(session, 'GET', `/api/reports/margin?${period}`);
    expect(margin).toEqual({
      currency: 'EUR',
      data: [{ period: today.slice(0, 7), turnover: 2071.66, expenses: 100, margin: 1971.66 }],
    });
  });

  it('by item and by customer tag, top ten and the rest: credit notes off, deposits once, USD at its rate of issue', async () => {
    const session = await seededOnDebits();
    const items = await ok(session, 'GET', `/api/reports/items?${period}`);
    // Cuisine: the final invoice's 1 000 (its deposit not counted again); Export: 1 000 USD at 1,085, not at 1,2;
    // Conseil: 200 invoiced less the 100 credited (two documents); Livre 50.
    expect(items).toEqual({
      currency: 'EUR',
      data: [
        { id: null, name: 'Cuisine', count: 1, net: 1000 },
        { id: null, name: 'Export', count: 1, net: 921.66 },
        { id: null, name: 'Conseil', count: 2, net: 100 },
        { id: null, name: 'Livre', count: 1, net: 50 },
      ],
      rest: { count: 0, net: 0 },
    });

    const pro = (await ok(session, 'POST', '/api/tags', { name: 'Pro', scopes: ['customer'] })).data;
    const abroad = (await ok(session, 'POST', '/api/tags', { name: 'Étranger', scopes: ['customer'] })).data;
    const customers = (await ok(session, 'GET', '/api/customers')).data as { id: number; name: string }[];
    const idOf = (name: string) => customers.find((c) => c.name === name)?.id;
    await ok(session, 'PUT', `/api/customers/${idOf('Boulangerie Martin')}`, { ...businessCustomer, tag_ids: [pro.id] });
    const importer = { ...businessCustomer, name: 'Import Export Inc.', tag_ids: [pro.id, abroad.id] };
    await ok(session, 'PUT', `/api/customers/${idOf('Import Export Inc.')}`, importer);
    const untagged = (await ok(session, 'POST', '/api/customers', { ...businessCustomer, name: 'Café du Port' })).data.id;
    await issued(session, { customer_id: untagged, date: today, items: [line('Café', 4, 20)] });

    const tags = await ok(session, 'GET', `/api/reports/tags?${period}`);
    // Pro: 1 150 (Boulangerie Martin: 200 − 100 + 50 + 1 000) + 921,66; Étranger: 921,66; untagged: 80.
    expect(tags).toEqual({
      currency: 'EUR',
      data: [
        { id: pro.id, name: 'Pro', count: 5, net: 2071.66 },
        { id: abroad.id, name: 'Étranger', count: 1, net: 921.66 },
        { id: null, name: 'Sans étiquette', count: 1, net: 80 },
      ],
      rest: { count: 0, net: 0 },
    });
  });

  it('by item, the eleventh and later designations are summed in the rest', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // Twelve designations at 12, 11, … 1 HT on one invoice: the top ten are 12 to 3, the rest 2 + 1.
    const lines = Array.from({ length: 12 }, (_, i) => line(`Article ${String(12 - i).padStart(2, '0')}`, 1, 12 - i));
    await issued(session, { customer_id: customerId, date: today, items: lines });
    const items = await ok(session, 'GET', `/api/reports/items?${period}`);
    expect(items.data.map((r: { name: string; net: number }) => [r.name, r.net])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`Article ${String(12 - i).padStart(2, '0')}`, 12 - i]),
    );
    expect(items.rest).toEqual({ count: 2, net: 3 });
  });

  it('VAT on receipts: services when paid, in proportion of the payment; goods when invoiced', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 1 000 HT of services, 1 200 TTC, half paid: 500 base and 100 VAT due. 100 HT of goods: 20 due at once.
    const services = await issued(session, { customer_id: customerId, date: today, items: [line('Audit', 1, 1000)] });
    await ok(session, 'POST', `/api/documents/${services.id}/payments`, { date: today, amount: 600 });
    await issued(session, { customer_id: customerId, date: today, items: [line('Carton', 1, 100, 20, { kind: 'goods' })] });
    const vat = await ok(session, 'GET', `/api/reports/vat?${period}`);
    expect(vat).toMatchObject({ basis: 'receipts', collected: [{ rate: 20, base: 600, amount: 120 }], deductible: [], due: 120 });
    expect(vat.ca3.at(-1)).toEqual({ line: '28', label: 'TVA nette due', base: null, amount: 120 });
  });

  it('VAT on receipts, payment by payment: a payment of the whole invoice counts its groups in full, a part its share', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 300 HT of services at 20 % (360 TTC), paid at once: 300 base, 60 VAT.
    const whole = await issued(session, { customer_id: customerId, date: today, items: [line('Audit', 1, 300)] });
    await ok(session, 'POST', `/api/documents/${whole.id}/payments`, { date: today, amount: 360 });
    // 100 HT at 5,5 % and 200 HT at 20 % of services (345,50 TTC), a fifth paid (69,10): 20 + 1,10 and 40 + 8.
    const part = await issued(session, {
      customer_id: customerId,
      date: today,
      items: [line('Formation', 1, 100, 5.5), line('Conseil', 1, 200)],
    });
    await ok(session, 'POST', `/api/documents/${part.id}/payments`, { date: today, amount: 69.1 });
    // 50 HT of goods at 20 %, unpaid: due when invoiced.
    await issued(session, { customer_id: customerId, date: today, items: [line('Carton', 1, 50, 20, { kind: 'goods' })] });
    const vat = await ok(session, 'GET', `/api/reports/vat?${period}`);
    expect(vat).toMatchObject({
      basis: 'receipts',
      collected: [
        { rate: 20, base: 390, amount: 78 },
        { rate: 5.5, base: 20, amount: 1.1 },
      ],
      due: 79.1,
    });
  });

  it('URSSAF: payments on documents of goods only, of services only and mixed, on the same day', async () => {
    const { session } = await registered(server.url);
    const { vat_number: _vat, legal_form: _form, capital: _capital, ...rest } = sellerIdentity;
    await ok(session, 'PUT', '/api/organization', { ...rest, legal_form: 'EI', vat_regime: 'franchise' });
    const customer = (await ok(session, 'POST', '/api/customers', { ...businessCustomer, type: 'individual', business_id: '' })).data.id;
    const item = (name: string, price: number, kind: 'goods' | 'service') => ({
      item: name,
      quantity: 1,
      unit_price: price,
      taxes: [],
      kind,
    });
    const pay = async (id: number, amount: number) => ok(session, 'POST', `/api/documents/${id}/payments`, { date: today, amount });
    const goods = await issued(session, { customer_id: customer, date: today, items: [item('Manuel', 80, 'goods')] });
    await pay(goods.id, 80);
    const services = await issued(session, { customer_id: customer, date: today, items: [item('Cours', 40, 'service')] });
    await pay(services.id, 10);
    await pay(services.id, 5);
    // A third of goods: each payment split on its own (10 → 3,3333 of goods; 20 → 6,6666), 9,9999 of goods in all.
    const mixed = await issued(session, {
      customer_id: customer,
      date: today,
      items: [item('Livre', 10, 'goods'), item('Atelier', 20, 'service')],
    });
    await pay(mixed.id, 10);
    await pay(mixed.id, 20);
    const urssaf = await ok(session, 'GET', `/api/reports/urssaf?${period}&group=month`);
    // Goods: 80 + 9,9999; services: 10 + 5 + 20,0001.
    expect(urssaf.data).toEqual([{ period: today.slice(0, 7), goods: 90, services: 35, total: 125 }]);
    expect(urssaf.year).toMatchObject({ goods: 90, services: 35, total: 125 });
  });

  it('the VAT rows and line HT kept at issue are what migration 0038 derives from the same documents', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const first = await issued(session, {
      customer_id: customerId,
      date: today,
      items: [line('Formation', 1, 100, 5.5), line('Conseil', 2, 200)],
    });
    const { organization_id: organizationId } = await server.app.deps.db
      .selectFrom('documents')
      .select('organization_id')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    const currency = await ok(session, 'POST', '/api/currencies', { code: 'USD', rate: '1.085' });
    await issued(session, { customer_id: customerId, currency: 'USD', date: today, items: [line('Export', 1, 1000)] });
    await ok(session, 'PUT', `/api/currencies/${currency.data.id}`, { code: 'USD', rate: '1.2' });
    // A deposit, cancelled by a credit note: neither is turnover; then a credit note on an invoice, which is.
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, date: today, items: [line('Cuisine', 1, 1000)] });
    const deposit = await ok(session, 'POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
    await ok(session, 'POST', `/api/documents/${deposit.data.id}/issue`);
    const depositCredit = await ok(session, 'POST', `/api/documents/${deposit.data.id}/convert`, { type: 'credit' });
    await ok(session, 'POST', `/api/documents/${depositCredit.data.id}/issue`);
    const invoice = await issued(session, { customer_id: customerId, date: today, items: [line('Pose', 1, 500)] });
    const credit = await ok(session, 'POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' });
    await ok(session, 'POST', `/api/documents/${credit.data.id}/issue`);
    // Turnover: 100 + 400 + 921,66 (1 000 USD at 1,085) + 500 − 500; the deposit and its credit note not counted.
    expect(await ok(session, 'GET', `/api/reports/turnover?${period}&group=year`)).toMatchObject({
      data: [{ period: year, count: 4, net: 1421.66 }],
    });

    const kept = async (db: Kysely<Database>) => ({
      taxes: await db
        .selectFrom('document_taxes')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('document_id')
        .orderBy('position')
        .execute(),
      lines: await db
        .selectFrom('document_items as i')
        .innerJoin('documents as d', 'd.id', 'i.document_id')
        .select(['i.id', 'i.net'])
        .where('d.organization_id', '=', organizationId)
        .orderBy('i.id')
        .execute(),
    });
    const atIssue = await kept(server.app.deps.db);
    // Two groups on the first invoice, one on each other invoice and credit note: 7 rows.
    expect(atIssue.taxes).toHaveLength(7);
    expect(atIssue.lines.map((l) => l.net)).toContain(4_000_000); // 2 × 200 HT, in stored units
    // A copy of the database taken back before 0038, then migrated again: its backfill gives the same rows.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-0038-'));
    const onPostgres = isPostgresUrl(server.databaseUrl);
    const copy = onPostgres ? copyTestDatabase(server.databaseUrl) : path.join(dir, 'copy.db');
    if (!onPostgres) await sql`vacuum into ${copy}`.execute(server.app.deps.db);
    const connection = openDatabase(copy);
    try {
      const down = await createMigrator(connection.db).migrateTo('0037_subscriptions');
      expect(down.error).toBeUndefined();
      await migrateToLatest(connection.db);
      expect(await kept(connection.db)).toEqual(atIssue);
    } finally {
      await connection.close();
      if (onPostgres) dropTestDatabase(copy);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no DSO for a business whose invoices were all issued today; over its history since the first invoice else', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const first = await issued(session, { customer_id: customerId, date: today, items: [line('Neuf', 1, 1000)] });
    await ok(session, 'POST', `/api/documents/${first.id}/payments`, { date: today, amount: 400 });
    // 800 of 1 200 owed, all invoiced today: 800 ÷ 1 200 × 365 would read « 243 jours ».
    expect(await ok(session, 'GET', '/api/reports/receivables')).toMatchObject({ total: 800, dso: null, dso_days: null });
  });

  it('the DSO of a business that began billing 60 days ago is over those 60 days', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await issued(session, { customer_id: customerId, date: daysAgo(59), maturity: daysAgo(29), items: [line('Premier', 1, 500)] });
    await issued(session, { customer_id: customerId, date: today, items: [line('Courant', 1, 500)] });
    // 1 200 owed ÷ 1 200 invoiced over 60 days × 60.
    expect(await ok(session, 'GET', '/api/reports/receivables')).toMatchObject({ total: 1200, dso: 60, dso_days: 60 });
  });

  it('receivables by days past due, the DSO over 365 days and the late customers', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // Issued in date order (numbering is chronological): 600 TTC due 400 days ago, 120 due 45 days ago, 240 not due.
    await issued(session, { customer_id: customerId, date: daysAgo(400), maturity: daysAgo(400), items: [line('Ancien', 1, 500)] });
    await issued(session, { customer_id: customerId, date: daysAgo(45), maturity: daysAgo(45), items: [line('Récent', 1, 100)] });
    const current = await issued(session, { customer_id: customerId, date: today, items: [line('Courant', 2, 100)] });
    await ok(session, 'POST', `/api/documents/${current.id}/payments`, { date: today, amount: 40 });

    const receivables = await ok(session, 'GET', '/api/reports/receivables');
    expect(receivables).toEqual({
      currency: 'EUR',
      buckets: [
        { label: 'Non échu', count: 1, amount: 200 },
        { label: '1 à 30 jours', count: 0, amount: 0 },
        { label: '31 à 60 jours', count: 1, amount: 120 },
        { label: '61 à 90 jours', count: 0, amount: 0 },
        { label: 'Plus de 90 jours', count: 1, amount: 600 },
      ],
      total: 920,
      // 920 owed ÷ 360 invoiced over the last 365 days (the 600 is older) × 365.
      dso: 933,
      dso_days: 365,
      late_customers: [{ customer_id: customerId, name: 'Boulangerie Martin', count: 2, amount: 720, oldest: daysAgo(400) }],
    });
  });

  it('the livre des recettes of a franchise 293 B organisation: its payments in date order, with their method', async () => {
    const { session } = await registered(server.url);
    const { vat_number: _vat, legal_form: _form, capital: _capital, ...rest } = sellerIdentity;
    await ok(session, 'PUT', '/api/organization', { ...rest, legal_form: 'EI', vat_regime: 'franchise' });
    const customer = await ok(session, 'POST', '/api/customers', { ...businessCustomer, type: 'individual', business_id: '' });
    const invoice = await issued(session, {
      customer_id: customer.data.id,
      date: today,
      items: [
        { item: 'Cours', quantity: 1, unit_price: 100, taxes: [], kind: 'service' },
        { item: 'Manuel', quantity: 1, unit_price: 200, taxes: [], kind: 'goods' },
      ],
    });
    await ok(session, 'POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 100, method: 'card' });
    await ok(session, 'POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 50, method: 'cash' });
    const book = await ok(session, 'GET', `/api/reports/receipts?${period}`);
    expect(book).toEqual({
      currency: 'EUR',
      count: 2,
      page: 1,
      pages: 1,
      total: 150,
      data: [
        { date: today, customer: 'Boulangerie Martin', document: invoice.number, amount: 100, method: 'Carte bancaire', currency: 'EUR' },
        { date: today, customer: 'Boulangerie Martin', document: invoice.number, amount: 50, method: 'Espèces', currency: 'EUR' },
      ],
    });
    // A page past the last: no rows, but the count and the total are still the whole period's.
    expect(await ok(session, 'GET', `/api/reports/receipts?${period}&page=2`)).toMatchObject({
      count: 2,
      page: 2,
      pages: 1,
      total: 150,
      data: [],
    });
    for (const [page, message] of [
      ['0', 'Page : 1 au moins'],
      ['1.5', 'Page : un nombre entier attendu'],
      ['deux', 'Page : un nombre attendu'],
    ]) {
      const refused = await session.rest('GET', `/api/reports/receipts?${period}&page=${page}`);
      expect(refused.status, page).toBe(400);
      expect([refused.body.messages].flat().join('\n'), page).toBe(message);
    }

    // Two thirds of each receipt are sales of goods (200 of the 300 HT): 100 goods, 50 services to declare.
    const urssaf = await ok(session, 'GET', `/api/reports/urssaf?${period}&group=quarter`);
    const quarter = `${year}-T${Math.ceil(Number(today.slice(5, 7)) / 3)}`;
    expect(urssaf).toEqual({
      currency: 'EUR',
      data: [{ period: quarter, goods: 100, services: 50, total: 150 }],
      year: {
        year: Number(year),
        goods: 100,
        services: 50,
        total: 150,
        thresholds: { goods: 85000, services: 37500 },
        reached: { goods: 0.1, services: 0.1 },
      },
    });
    const bad = await session.rest('GET', `/api/reports/urssaf?${period}&group=year`);
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toMatch(/^Regroupement : « month » ou « quarter »/);
  });

  it('an empty organisation gets empty figures, never an error', async () => {
    const { session } = await registered(server.url);
    expect(await ok(session, 'GET', `/api/reports/turnover?${period}`)).toEqual({ currency: 'EUR', data: [] });
    expect(await ok(session, 'GET', `/api/reports/vat?${period}`)).toMatchObject({ collected: [], deductible: [], due: 0 });
    const receivables = await ok(session, 'GET', '/api/reports/receivables');
    expect(receivables).toMatchObject({ total: 0, dso: null, late_customers: [] });
    expect(receivables.buckets).toHaveLength(5);
    expect(await ok(session, 'GET', `/api/reports/customers?${period}`)).toEqual({ currency: 'EUR', data: [], rest: { count: 0, net: 0 } });
    expect(await ok(session, 'GET', `/api/reports/margin?${period}`)).toEqual({ currency: 'EUR', data: [] });
    expect(await ok(session, 'GET', `/api/reports/items?${period}`)).toEqual({ currency: 'EUR', data: [], rest: { count: 0, net: 0 } });
    expect(await ok(session, 'GET', `/api/reports/tags?${period}`)).toEqual({ currency: 'EUR', data: [], rest: { count: 0, net: 0 } });
  });

  it('refuses a bad period or group with a French 400', async () => {
    const { session } = await registered(server.url);
    const cases: [string, RegExp][] = [
      ['/api/reports/turnover?from=2026-12-31&to=2026-01-01', /^Période : la date de fin \(Au\) doit suivre la date de début \(Du\)$/],
      ['/api/reports/turnover?from=2010-01-01&to=2026-12-31', /^Période : 10 ans au plus entre Du et Au$/],
      ['/api/reports/turnover?from=2026-01-01&to=2026-12-31&group=week', /^Regroupement : « month », « quarter » ou « year »$/],
      ['/api/reports/turnover?from=2026-13-01&to=2026-12-31', /^Du : date attendue au format AAAA-MM-JJ$/],
      ['/api/reports/vat?from=2026-01-01', /^Au : date attendue au format AAAA-MM-JJ$/],
      ['/api/reports/vat?from=2027-01-01&to=2026-01-01', /^Période : la date de fin/],
      ['/api/reports/customers?from=2000-01-01&to=2020-01-01', /^Période : 10 ans au plus/],
      ['/api/reports/items?from=2026-02-01&to=2026-01-01', /^Période : la date de fin/],
      ['/api/reports/tags?from=2026-01-01&to=demain', /^Au : date attendue au format AAAA-MM-JJ$/],
    ];
    for (const [path, message] of cases) {
      const answer = await session.rest('GET', path);
      expect(answer.status, path).toBe(400);
      expect([answer.body.messages].flat().join('\n'), path).toMatch(message);
    }
    // Exactly ten years (2017-01-01 to 2026-12-31) is allowed.
    expect((await session.rest('GET', '/api/reports/turnover?from=2017-01-01&to=2026-12-31')).status).toBe(200);
  });
});
