import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { FEC_FIELDS } from '../../src/shared/fec/format';
import { toRenderDocument } from '../../src/client/render/to-render-document';
import { totalRows } from '../../src/client/render/totals-rows';
import { formattersOf } from '../../src/client/render/labels';
import { defaultAppSettings } from '../../src/shared/schemas/settings';
import { defaultDocumentTemplate } from '../../src/shared/schemas/template';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Converted documents (credit notes) are dated the day they are made: every document here is dated today.
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = today.slice(0, 4);
const period = `from=${year}-01-01&to=${year}-12-31`;

async function ok(session: Session, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const answer = await session.rest(method, path, body);
  expect(answer.status, `${method} ${path} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** The VT journal of the year's FEC: [account, debit, credit, amount in currency, currency] per row. */
async function salesBook(session: Session) {
  const response = await session.fetch(`${session.baseUrl}/api/exports/fec?year=${year}`);
  expect(response.status).toBe(200);
  const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
  return text
    .split('\r\n')
    .slice(1, -1)
    .map((l) => Object.fromEntries(FEC_FIELDS.map((f, i) => [f, l.split('\t')[i] ?? ''])))
    .filter((r) => r.JournalCode === 'VT')
    .map((r) => [r.CompteNum, r.Debit, r.Credit, r.Montantdevise, r.Idevise]);
}

/** An organisation on the débits (its VAT report counts invoices when issued) with USD at 1,085 in Paramètres → Devises. */
async function withDollars() {
  const { session } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  await ok(session, 'PUT', '/api/organization', { ...sellerIdentity, vat_on_debits: true });
  const usd = (await ok(session, 'POST', '/api/currencies', { code: 'USD', rate: '1,085' })).data;
  const setUsd = (rate: string) => ok(session, 'PUT', `/api/currencies/${usd.id}`, { rate });
  return { session, customerId, setUsd };
}

// 1 000 USD HT + 200 USD of VAT at 1 EUR = 1,1 USD: 909,09 € HT, 181,82 € of VAT, 1 090,91 € TTC (at Paramètres →
// Devises' 1,085 it would be 921,66 / 184,33 / 1 105,99; at 1,3, 769,23 / 153,85 / 923,08).
const consulting = [line('Consulting', 1, 1000, 20)];

describe('a draft’s own exchange rate', () => {
  it('typed on a USD draft, kept through a settings change, issued at it: XML, PDF, FEC, VAT report and turnover to the cent', async () => {
    const { session, customerId, setUsd } = await withDollars();
    const created = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: '1,1',
        items: consulting,
      })
    ).data;
    expect(created).toMatchObject({ status: 'draft', currency: 'USD', exchange_rate: '1.1', total: 1200 });

    // Paramètres → Devises moves after the draft was saved: the draft keeps its own rate, through an edit that leaves
    // the rate out too.
    await setUsd('1,3');
    expect((await ok(session, 'GET', `/api/documents/${created.id}`)).exchange_rate).toBe('1.1');
    const { exchange_rate: _left, ...withoutRate } = await ok(session, 'GET', `/api/documents/${created.id}`);
    const edited = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...withoutRate, note: 'Payable en dollars' })).data;
    expect(edited).toMatchObject({ note: 'Payable en dollars', exchange_rate: '1.1' });
    // The typed client reads it too.
    expect((await session.trpc().documents.get.query({ id: created.id })).exchange_rate).toBe('1.1');

    const invoice = (await ok(session, 'POST', `/api/documents/${created.id}/issue`)).data;
    expect(invoice).toMatchObject({ status: 'unpaid', exchange_rate: '1.1' });
    await setUsd('1,2');

    // The e-invoice: BT-111, the VAT total in euros.
    const xml = await (await session.fetch(`${session.baseUrl}/api/documents/${invoice.id}/einvoice?format=cii`)).text();
    expect(xml).toContain('<ram:TaxTotalAmount currencyID="EUR">181.82</ram:TaxTotalAmount>');
    expect(xml).not.toContain('184.33');

    // The PDF prints what the share answers through the one render model: its rows in euros at 1,1.
    const shared = (await ok(session, 'GET', `/api/share/${invoice.uuid}`)).document;
    expect(shared.exchange_rate).toBe('1.1');
    const settings = defaultAppSettings();
    const rendered = toRenderDocument({ document: shared }, { settings });
    expect(rendered.vat_in_base).toEqual({ currency: 'EUR', rate: '1.1', taxes: [{ rate: 20, amount: 181.82 }], total: 181.82 });
    const rows = totalRows(rendered, defaultDocumentTemplate().table.totals, formattersOf(settings, 'USD'));
    expect(rows.filter((r) => r.key === 'vat-base-total').map((r) => r.label)).toEqual(['Total TVA en EUR (1 EUR = 1,1 USD)']);

    // The FEC books it at 1,1, balanced to the cent.
    expect(await salesBook(session)).toEqual([
      ['411', '1090,91', '0,00', '1200,00', 'USD'],
      ['706', '0,00', '909,09', '1000,00', 'USD'],
      ['44571', '0,00', '181,82', '200,00', 'USD'],
    ]);

    // The VAT report and the turnover count it at 1,1.
    const vat = await ok(session, 'GET', `/api/reports/vat?${period}`);
    expect(vat.collected).toEqual([{ rate: 20, base: 909.09, amount: 181.82 }]);
    const turnover = await ok(session, 'GET', `/api/reports/turnover?${period}&group=year`);
    expect(turnover.data).toEqual([{ period: year, count: 1, net: 909.09, tax: 181.82, total: 1090.91 }]);
  });

  it('a draft saved without a rate takes the rate of Paramètres → Devises at issue, as it is then', async () => {
    const { session, customerId, setUsd } = await withDollars();
    const created = (
      await ok(session, 'POST', '/api/documents', { customer_id: customerId, date: today, currency: 'USD', items: consulting })
    ).data;
    expect(created.exchange_rate).toBeNull();
    // An empty text is no rate either (the editor's emptied field).
    const emptied = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...created, exchange_rate: '' })).data;
    expect(emptied.exchange_rate).toBeNull();
    await setUsd('1,3');
    const invoice = (await ok(session, 'POST', `/api/documents/${created.id}/issue`)).data;
    expect(invoice.exchange_rate).toBe('1.3');
    expect(await salesBook(session)).toEqual([
      ['411', '923,08', '0,00', '1200,00', 'USD'],
      ['706', '0,00', '769,23', '1000,00', 'USD'],
      ['44571', '0,00', '153,85', '200,00', 'USD'],
    ]);
  });

  it('a typed rate can be changed or taken back while a draft; a new currency drops it; a duplicate starts without it', async () => {
    const { session, customerId } = await withDollars();
    await ok(session, 'POST', '/api/currencies', { code: 'GBP', rate: '0,85' });
    const created = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: 1.1,
        items: consulting,
      })
    ).data;
    expect(created.exchange_rate).toBe('1.1');
    const changed = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...created, exchange_rate: ' 1,0937 ' })).data;
    expect(changed.exchange_rate).toBe('1.0937');
    const cleared = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...changed, exchange_rate: null })).data;
    expect(cleared.exchange_rate).toBeNull();
    const typed = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...cleared, exchange_rate: '1,1000' })).data;
    expect(typed.exchange_rate).toBe('1.1');
    // Into pounds without a rate: the dollar rate means nothing there.
    const { exchange_rate: _rate, ...inPounds } = { ...typed, currency: 'GBP' };
    expect((await ok(session, 'PUT', `/api/documents/${created.id}`, inPounds)).data.exchange_rate).toBeNull();
    // Back to euros, the accounting currency: 1, or nothing, is all it takes.
    const inEuros = (await ok(session, 'PUT', `/api/documents/${created.id}`, { ...typed, currency: 'EUR', exchange_rate: '1' })).data;
    expect(inEuros).toMatchObject({ currency: 'EUR', exchange_rate: null });

    const usd = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: '1,1',
        items: consulting,
      })
    ).data;
    const issued = (await ok(session, 'POST', `/api/documents/${usd.id}/issue`)).data;
    const copy = (await ok(session, 'POST', `/api/documents/${issued.id}/duplicate`)).data;
    expect(copy).toMatchObject({ status: 'draft', currency: 'USD', exchange_rate: null });
  });

  it.each([
    [0, 'Le taux de change doit être supérieur à 0'],
    ['-1,2', 'Le taux de change doit être supérieur à 0'],
    ['un dollar', 'Le taux de change doit être un nombre (ex. 1,085)'],
    ['1,2,3', 'Le taux de change doit être un nombre (ex. 1,085)'],
    [true, 'Le taux de change doit être un nombre (ex. 1,085)'],
    ['1,0850001', 'Taux de change : 6 décimales au plus'],
    [0.1 + 0.2, 'Taux de change : 6 décimales au plus'],
    ['2000000000', 'Le taux de change ne peut dépasser 1 000 000 000'],
  ])('refuses the rate %j in French, on a new draft and on a saved one, and writes nothing', async (rate, message) => {
    const { session, customerId } = await withDollars();
    const before = (await ok(session, 'GET', '/api/documents?type=invoice')).total;
    const refused = await session.rest('POST', '/api/documents', {
      customer_id: customerId,
      date: today,
      currency: 'USD',
      exchange_rate: rate,
      items: consulting,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toContain(message);
    expect(Object.keys(refused.body.fields)).toEqual(['exchange_rate']);
    expect((await ok(session, 'GET', '/api/documents?type=invoice')).total).toBe(before);

    const saved = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: '1,1',
        items: consulting,
      })
    ).data;
    const update = await session.rest('PUT', `/api/documents/${saved.id}`, { ...saved, note: 'changée', exchange_rate: rate });
    expect(update.status).toBe(400);
    expect(update.body.messages).toContain(message);
    expect(await ok(session, 'GET', `/api/documents/${saved.id}`)).toMatchObject({
      note: '',
      exchange_rate: '1.1',
      updated_at: saved.updated_at,
    });
  });

  it('refuses a rate other than 1 on a document in euros, beside the field, on both doors', async () => {
    const { session, customerId } = await withDollars();
    const refused = await session.rest('POST', '/api/documents', {
      customer_id: customerId,
      date: today,
      exchange_rate: '1,1',
      items: consulting,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe('Taux de change : ce document est en EUR, la devise de la comptabilité, son taux reste 1');
    expect(refused.body.fields).toEqual({ exchange_rate: expect.stringContaining('EUR') });
    const trpc = await session
      .trpc()
      .documents.create.mutate({ customer_id: customerId, date: today, exchange_rate: '1,1', items: consulting })
      .then(
        () => null,
        (error: { message: string }) => error.message,
      );
    expect(trpc).toContain('ce document est en EUR');
  });

  it('an issued document’s rate does not change: an invoice is not edited, an issued estimate keeps the rate of its issue', async () => {
    const { session, customerId, setUsd } = await withDollars();
    const draft = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: '1,1',
        items: consulting,
      })
    ).data;
    const invoice = (await ok(session, 'POST', `/api/documents/${draft.id}/issue`)).data;
    const edit = await session.rest('PUT', `/api/documents/${invoice.id}`, { ...invoice, exchange_rate: '1,2' });
    expect(edit.status).toBe(409);
    expect((await ok(session, 'GET', `/api/documents/${invoice.id}`)).exchange_rate).toBe('1.1');

    // An issued estimate is still edited while pending, at the rate of its issue (the settings' 1,085 then).
    const estimate = (
      await ok(session, 'POST', '/api/documents', {
        type: 'estimate',
        customer_id: customerId,
        date: today,
        currency: 'USD',
        items: consulting,
      })
    ).data;
    const pending = (await ok(session, 'POST', `/api/documents/${estimate.id}/issue`)).data;
    expect(pending).toMatchObject({ status: 'pending', exchange_rate: '1.085' });
    await setUsd('1,3');
    const moved = await session.rest('PUT', `/api/documents/${pending.id}`, { ...pending, exchange_rate: '1,3' });
    expect(moved.status).toBe(400);
    expect(moved.body.messages).toBe('Taux de change : il a été fixé à l’émission et ne change plus');
    expect(moved.body.fields).toEqual({ exchange_rate: expect.any(String) });
    // The same rate, written the French way, or none at all, is an edit like any other.
    const same = (await ok(session, 'PUT', `/api/documents/${pending.id}`, { ...pending, exchange_rate: '1,0850', note: 'Révisé' })).data;
    expect(same).toMatchObject({ note: 'Révisé', exchange_rate: '1.085' });
    const { exchange_rate: _rate, ...left } = same;
    expect((await ok(session, 'PUT', `/api/documents/${pending.id}`, { ...left, note: 'Révisé 2' })).data.exchange_rate).toBe('1.085');
  });

  it('a credit note takes its invoice’s rate, keeps it whatever the settings say, and books the reversal at it', async () => {
    const { session, customerId, setUsd } = await withDollars();
    const draft = (
      await ok(session, 'POST', '/api/documents', {
        customer_id: customerId,
        date: today,
        currency: 'USD',
        exchange_rate: '1,1',
        items: consulting,
      })
    ).data;
    const invoice = (await ok(session, 'POST', `/api/documents/${draft.id}/issue`)).data;
    await setUsd('1,3');
    const credit = (await ok(session, 'POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).data;
    expect(credit).toMatchObject({ type: 'credit', status: 'draft', exchange_rate: '1.1' });
    const other = await session.rest('PUT', `/api/documents/${credit.id}`, { ...credit, exchange_rate: '1,3' });
    expect(other.status).toBe(400);
    expect(other.body.messages).toBe('Taux de change : un avoir garde celui de la facture qu’il corrige');
    const issued = (await ok(session, 'POST', `/api/documents/${credit.id}/issue`)).data;
    expect(issued.exchange_rate).toBe('1.1');
    // The invoice and its credit note, both at 1,1: every account back to zero, to the cent.
    expect(await salesBook(session)).toEqual([
      ['411', '1090,91', '0,00', '1200,00', 'USD'],
      ['706', '0,00', '909,09', '1000,00', 'USD'],
      ['44571', '0,00', '181,82', '200,00', 'USD'],
      ['706', '909,09', '0,00', '1000,00', 'USD'],
      ['44571', '181,82', '0,00', '200,00', 'USD'],
      ['411', '0,00', '1090,91', '1200,00', 'USD'],
    ]);
    const vat = await ok(session, 'GET', `/api/reports/vat?${period}`);
    expect(vat.collected).toEqual([]);
  });
});
