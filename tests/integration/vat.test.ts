import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import type { Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const TVA20 = { title: 'TVA 20 %', rate: 20 };
const TVA10 = { title: 'TVA 10 %', rate: 10 };
const TVA55 = { title: 'TVA 5,5 %', rate: 5.5 };

async function franchise(session: Session) {
  const answer = await session.rest('PUT', '/api/organization', {
    ...sellerIdentity,
    legal_form: 'EI',
    capital: '',
    rcs_city: '',
    vat_number: '',
    vat_regime: 'franchise',
  });
  expect(answer.status).toBe(200);
}

async function allowSeveralTaxes(session: Session, allowed: boolean) {
  const settings = (await session.rest('GET', '/api/settings')).body;
  const answer = await session.rest('PUT', '/api/settings', { ...settings, multiple_taxes_per_line: allowed });
  expect(answer.status).toBe(200);
  expect(answer.body.data.multiple_taxes_per_line).toBe(allowed);
}

const rateIds = async (session: Session) => {
  const taxes = (await session.rest('GET', '/api/taxes')).body.data as { id: number; rate: number }[];
  const id = (rate: number) => taxes.find((t) => t.rate === rate)?.id ?? 0;
  return { tva20: id(20), tva10: id(10), tva55: id(5.5) };
};

describe('shipping is part of the taxable base (CGI art. 267), through REST', () => {
  it('a document with shipping at 20 % answers the right tax and total, kept after issue', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 2 × 150 = 300 HT at 20 %, shipping 12,50 follows the lines' one rate: VAT 20 % on 312,50 = 62,50; total 375,00.
    const doc = await draft(session, { customer_id: customerId, items: [line('Conseil', 2, 150)], shipping: 12.5 });
    expect(doc).toMatchObject({
      subtotal: 300,
      shipping: 12.5,
      tax: 62.5,
      total: 375,
      shipping_tax: TVA20,
      shipping_tax_auto: true,
    });
    expect(doc.taxes).toEqual([{ ...TVA20, taxable_amount: 312.5, amount: 62.5, shipping: 12.5 }]);

    const issue = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(issue.status).toBe(200);
    expect(issue.body.data).toMatchObject({ tax: 62.5, total: 375, amount_due: 375, shipping_tax: TVA20 });
    const shared = await session.rest('GET', `/api/share/${doc.uuid}`);
    expect(shared.status).toBe(200);
    expect(shared.body.document ?? shared.body).toMatchObject({ shipping: 12.5, tax: 62.5, total: 375, shipping_tax: TVA20 });
  });

  it('shipping is apportioned to the rates of the lines at each save, or takes the one chosen, or none', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const body = {
      date: '2026-11-02',
      customer_id: customerId,
      items: [line('Conseil', 1, 100), line('Livres', 3, 100, 5.5)],
      shipping: 20,
    };
    // Apportioned 300 : 100 → 15 at 5,5 % (315 → 17,33) and 5 at 20 % (105 → 21); total 400 + 20 + 38,33 = 458,33. The
    // main rate (5,5 %, the largest base) is still answered, for the editor.
    const doc = await draft(session, body);
    expect(doc).toMatchObject({ tax: 38.33, total: 458.33, shipping_tax: TVA55, shipping_tax_auto: true });

    // A GET → PUT round trip with other lines: the parts follow them.
    const loaded = (await session.rest('GET', `/api/documents/${doc.id}`)).body;
    const moved = await session.rest('PUT', `/api/documents/${doc.id}`, {
      ...loaded,
      items: [line('Conseil', 5, 100), line('Livres', 1, 100, 5.5)],
    });
    expect(moved.status).toBe(200);
    // 500 : 100 → 16,67 at 20 % (516,67 → 103,33) and 3,33 at 5,5 % (103,33 → 5,68); total 600 + 20 + 109,01 = 729,01
    expect(moved.body.data).toMatchObject({ tax: 109.01, total: 729.01, shipping_tax: TVA20, shipping_tax_auto: true });

    const chosen = await session.rest('PUT', `/api/documents/${doc.id}`, { ...body, shipping_tax: TVA10 });
    // 10 % on 20 = 2; 20 % on 100 = 20; 5,5 % on 300 = 16,50; total 400 + 20 + 38,50 = 458,50
    expect(chosen.body.data).toMatchObject({ tax: 38.5, total: 458.5, shipping_tax: TVA10, shipping_tax_auto: false });
    expect(chosen.body.data.taxes).toContainEqual({ ...TVA10, taxable_amount: 20, amount: 2, shipping: 20 });

    const none = await session.rest('PUT', `/api/documents/${doc.id}`, { ...body, shipping_tax: null });
    expect(none.body.data).toMatchObject({ tax: 36.5, total: 456.5, shipping_tax: null, shipping_tax_auto: false });
  });

  it('in TTC mode shipping is typed excluding tax and its VAT is added', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 120 TTC = 100 HT + 20; shipping 10 HT + 2 VAT; total 132.
    const doc = await draft(session, { customer_id: customerId, price_mode: 'ttc', items: [line('Conseil', 1, 120)], shipping: 10 });
    expect(doc).toMatchObject({ subtotal: 100, shipping: 10, tax: 22, total: 132 });
  });

  it('a full credit note credits shipping at the rate the invoice applied', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 100)], shipping: 10, shipping_tax: TVA10 });
    expect(invoice).toMatchObject({ tax: 21, total: 131 });
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' });
    expect(credit.status).toBe(201);
    expect(credit.body.data).toMatchObject({ type: 'credit', shipping: 10, shipping_tax: TVA10, tax: 21, total: 131 });
  });

  it('a bad shipping rate is answered in French', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('POST', '/api/documents', {
      date: '2026-11-02',
      shipping: 10,
      shipping_tax: { title: 'TVA', rate: -5 },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain('Taux de taxe : il ne peut être négatif');
    const auto = await session.rest('POST', '/api/documents', { date: '2026-11-02', shipping_tax_auto: 'oui' });
    expect(auto.status).toBe(400);
    expect(JSON.stringify(auto.body.messages)).toContain('TVA des frais de port');
  });
});

describe('franchise en base (CGI art. 293 B)', () => {
  it('lines with VAT are refused on save, naming the line; shipping carries no VAT; the invoice issues with the mention', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await franchise(session);

    const refused = await session.rest('POST', '/api/documents', {
      date: '2026-11-02',
      customer_id: customerId,
      items: [line('Conseil', 1, 100, 0), line('Formation', 1, 200)],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toEqual([
      'Ligne 2 (« Formation ») : TVA non applicable sous la franchise en base (art. 293 B du CGI), retirez « TVA 20 % »',
    ]);

    const shippingRate = await session.rest('POST', '/api/documents', {
      date: '2026-11-02',
      items: [{ item: 'Conseil', quantity: 1, unit_price: 100 }],
      shipping: 10,
      shipping_tax: TVA20,
    });
    expect(shippingRate.status).toBe(400);
    expect(shippingRate.body.messages).toEqual([
      'Frais de port : TVA non applicable sous la franchise en base (art. 293 B du CGI), choisissez « Aucune »',
    ]);

    const doc = await draft(session, { customer_id: customerId, items: [{ item: 'Conseil', quantity: 1, unit_price: 100 }], shipping: 10 });
    expect(doc).toMatchObject({ subtotal: 100, shipping: 10, tax: 0, taxes: [], total: 110, shipping_tax: null });
    const issue = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(issue.status).toBe(200);
    expect(issue.body.data.legal_mentions).toContain('TVA non applicable, art. 293 B du CGI');
  });

  it('a catalogue item with VAT is refused, one without is accepted', async () => {
    const { session } = await registered(server.url);
    await franchise(session);
    const { tva20 } = await rateIds(session);
    const refused = await session.rest('POST', '/api/items', { name: 'Conseil', unit_price: 80, tax_ids: [tva20] });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe(
      'Article « Conseil » : TVA non applicable sous la franchise en base (art. 293 B du CGI), retirez « TVA 20 % »',
    );
    expect((await session.rest('POST', '/api/items', { name: 'Conseil', unit_price: 80, tax_ids: [] })).status).toBe(201);
  });
});

describe('one VAT rate per line and per catalogue item, unless the organisation opts in', () => {
  it('is off by default and refuses a line with two taxes, naming it; the opt-in accepts it', async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('GET', '/api/settings')).body.multiple_taxes_per_line).toBe(false);
    const body = {
      date: '2026-11-02',
      items: [line('Conseil', 1, 100), { item: 'Pneus', quantity: 4, unit_price: 80, taxes: [TVA20, { title: 'Écotaxe', rate: 1 }] }],
    };
    const refused = await session.rest('POST', '/api/documents', body);
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toEqual([
      'Ligne 2 (« Pneus ») : une seule TVA par ligne (TVA 20 %, Écotaxe) ; choisissez-en une, ou autorisez plusieurs taxes par ligne dans Paramètres → TVA',
    ]);
    const viaTrpc = await session
      .trpc()
      .documents.create.mutate(body as never)
      .catch((e: { message: string }) => e.message);
    expect(String(viaTrpc)).toContain('Ligne 2 (« Pneus ») : une seule TVA par ligne');

    await allowSeveralTaxes(session, true);
    const accepted = await session.rest('POST', '/api/documents', body);
    expect(accepted.status).toBe(201);
    // 100 at 20 % + 320 at 20 % and 1 %: VAT 84 + 3,20; total 420 + 87,20 = 507,20
    expect(accepted.body.data).toMatchObject({ tax: 87.2, total: 507.2 });

    // Turned off again: a save of that document is refused until the line has one rate.
    await allowSeveralTaxes(session, false);
    const again = await session.rest('PUT', `/api/documents/${accepted.body.data.id}`, body);
    expect(again.status).toBe(400);
    expect(again.body.messages[0]).toContain('Ligne 2 (« Pneus »)');
  });

  it('refuses a catalogue item with two rates, unless opted in', async () => {
    const { session } = await registered(server.url);
    const { tva20, tva55 } = await rateIds(session);
    const body = { name: 'Coffret', unit_price: 40, tax_ids: [tva20, tva55] };
    const refused = await session.rest('POST', '/api/items', body);
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe(
      'Article « Coffret » : une seule TVA par article (TVA 20 %, TVA 5,5 %) ; choisissez-en une, ou autorisez plusieurs taxes par ligne dans Paramètres → TVA',
    );
    await allowSeveralTaxes(session, true);
    expect((await session.rest('POST', '/api/items', body)).status).toBe(201);
  });

  it('the CSV import follows the same rule', async () => {
    const { session } = await registered(server.url);
    const csv = ['Désignation;Prix unitaire HT;TVA', 'Coffret;40;TVA 20 % + TVA 5,5 %', 'Livre;10;5,5'].join('\r\n');
    const answer = await session.rest('POST', '/api/items/import', { csv, dry_run: true });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ total_rows: 2, valid: 1 });
    expect(answer.body.data.rejected).toEqual([
      {
        line: 2,
        messages: [
          'TVA : une seule TVA par article (TVA 20 %, TVA 5,5 %) ; choisissez-en une, ou autorisez plusieurs taxes par ligne dans Paramètres → TVA',
        ],
      },
    ]);
  });
});
