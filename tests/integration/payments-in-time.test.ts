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
const daysFrom = (days: number) => new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A services invoice of 1 000 HT at 20 % (1 200 TTC) issued on 10 January 2025: its VAT is due when paid. */
async function servicesInvoice(session: Session) {
  const { customerId } = await readyToInvoice(session);
  return issued(session, { customer_id: customerId, date: '2025-01-10', maturity: '2025-02-09', items: [line('Audit', 1, 1000)] });
}

const vatOf = async (session: Session, from: string, to: string) => {
  const vat = (await session.rest('GET', `/api/reports/vat?from=${from}&to=${to}`)).body;
  return vat.lines.find((l: { code: string }) => l.code === '08').tax;
};
const receiptsOf = async (session: Session, from: string, to: string) =>
  (await session.rest('GET', `/api/reports/receipts?from=${from}&to=${to}`)).body.total;
const cashedDates = async (session: Session, id: number) =>
  ((await session.rest('GET', `/api/documents/${id}/lifecycle`)).body.data as { status: string; date: string }[]).map(
    (e) => `${e.status} ${e.date}`,
  );

describe('payments that respect time', () => {
  it('a payment dated after today is refused, in French, whether recorded or corrected', async () => {
    const { session } = await registered(server.url);
    const invoice = await servicesInvoice(session);
    for (const days of [1, 90]) {
      const future = await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: daysFrom(days), amount: 100 });
      expect(future.status).toBe(400);
      expect(future.body.messages).toMatch(
        /^Date du paiement : le \d\d\/\d\d\/\d{4} est dans le futur ; enregistrez le paiement le jour où il est reçu$/,
      );
    }
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.total).toBe(0);
    const paid = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 100 })).body.data;
    const moved = await session.rest('PUT', `/api/documents/${invoice.id}/payments/${paid.id}`, { date: daysFrom(30), amount: 100 });
    expect(moved.status).toBe(400);
    // Refused as a whole: the payment stands, uncancelled.
    const payments = (await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data;
    expect(payments).toMatchObject([{ id: paid.id, date: today, amount: 100, reversed_by_id: null }]);
  });

  it('a corrected payment keeps its place in time: reversed at its own date, Encaissée dated by the payment that settled', async () => {
    const { session } = await registered(server.url);
    const invoice = await servicesInvoice(session);
    const march = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2025-03-10', amount: 1200 })).body.data;
    expect(await vatOf(session, '2025-03-01', '2025-03-31')).toBe(200);
    expect(await cashedDates(session, invoice.id)).toEqual(['cashed 2025-03-10']);

    // The customer had in fact paid on 20 February: the date is corrected.
    const corrected = await session.rest('PUT', `/api/documents/${invoice.id}/payments/${march.id}`, { date: '2025-02-20', amount: 1200 });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const payments = (await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data;
    expect(payments.map((p: { date: string; amount: number }) => [p.date, p.amount])).toEqual([
      ['2025-02-20', 1200],
      ['2025-03-10', 1200],
      ['2025-03-10', -1200],
    ]);
    // February collects the VAT; March nothing, this year's months nothing either.
    expect(await vatOf(session, '2025-02-01', '2025-02-28')).toBe(200);
    expect(await vatOf(session, '2025-03-01', '2025-03-31')).toBe(0);
    expect(await vatOf(session, `${today.slice(0, 7)}-01`, today)).toBe(0);
    expect(await receiptsOf(session, '2025-02-01', '2025-02-28')).toBe(1200);
    expect(await receiptsOf(session, '2025-03-01', '2025-03-31')).toBe(0);
    expect(await receiptsOf(session, `${today.slice(0, 4)}-01-01`, today)).toBe(0);
    // Encaissée is declared again at the day the invoice was really settled.
    expect(await cashedDates(session, invoice.id)).toEqual(['cashed 2025-03-10', `cash_withdrawn ${today}`, 'cashed 2025-02-20']);
    // The bank journal of 2025 holds the three entries, the cancelled one and its reversal on the same day; this
    // year's holds none of them.
    const bank = async (year: string) => {
      const response = await session.fetch(`${session.baseUrl}/api/exports/fec?year=${year}`);
      const text = new TextDecoder('iso-8859-15').decode(new Uint8Array(await response.arrayBuffer()));
      return text
        .split('\r\n')
        .map((l) => l.split('\t'))
        .filter((cells) => cells[0] === 'BQ' && cells[4]?.startsWith('512'))
        .map((cells) => `${cells[3]} ${cells[11]} ${cells[12]}`);
    };
    expect((await bank('2025')).sort()).toEqual(['20250220 1200,00 0,00', '20250310 0,00 1200,00', '20250310 1200,00 0,00']);
    expect(await bank(today.slice(0, 4))).toEqual([]);
  });

  it('a cancelled payment is reversed at its own date: the period it was counted in comes back to nothing', async () => {
    const { session } = await registered(server.url);
    const invoice = await servicesInvoice(session);
    const first = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2025-03-10', amount: 600 })).body.data;
    expect(await vatOf(session, '2025-03-01', '2025-03-31')).toBe(100);
    expect((await session.rest('DELETE', `/api/documents/${invoice.id}/payments/${first.id}`)).status).toBe(200);
    expect(await vatOf(session, '2025-03-01', '2025-03-31')).toBe(0);
    expect(await vatOf(session, '2025-01-01', today)).toBe(0);
    expect(await receiptsOf(session, '2025-03-01', '2025-03-31')).toBe(0);
  });
});
