import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { keepPdf } from '../helpers/kept-pdf';

// No SMTP_URL: every mail is written as an .eml file under DATA_DIR/outbox, wherever DATA_DIR is.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const daysFrom = (n: number) => new Date(Date.parse(`${today}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const outbox = () => path.join(server.dataDir, 'outbox');
const mailsTo = (address: string) =>
  fs
    .readdirSync(outbox())
    .map((f) => fs.readFileSync(path.join(outbox(), f), 'utf8'))
    .filter((m) => m.includes(`To: ${address}`));

async function customer(session: Session, email: string): Promise<number> {
  const answer = await session.rest('POST', '/api/customers', {
    name: 'Boulangerie Martin',
    business_id: '732 829 320',
    email,
    address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
  });
  expect(answer.status).toBe(201);
  return answer.body.data.id;
}

describe('without an SMTP server, the messages name the outbox of the server’s own DATA_DIR', () => {
  it('a document sent by e-mail', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const customerId = await customer(session, 'compta@boulangerie-martin.fr');
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 450)] });
    await keepPdf(server, invoice.id);
    const answer = await session.rest('POST', `/api/documents/${invoice.id}/send`, { to: 'compta@boulangerie-martin.fr' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.messages).toBe(
      `Facture ${invoice.number} : aucun serveur SMTP n’est configuré, l’e-mail pour compta@boulangerie-martin.fr est déposé dans la boîte d’envoi du serveur (${outbox()})`,
    );
    expect(outbox().startsWith(server.dataDir)).toBe(true);
    expect(mailsTo('compta@boulangerie-martin.fr')).toHaveLength(1);
  });

  it('a payment reminder sent from the Relances list', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const customerId = await customer(session, 'relance@boulangerie-martin.fr');
    // Due in 3 days: the default schedule's first step (3 days before the due date) is due today.
    const invoice = await issued(session, { customer_id: customerId, maturity: daysFrom(3), items: [line('Conseil', 1, 1000)] });
    await keepPdf(server, invoice.id);
    const sent = await session.rest('POST', `/api/reminders/${invoice.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.messages).toBe(
      `Relance de la facture ${invoice.number} envoyée à relance@boulangerie-martin.fr (aucun serveur SMTP n’est configuré : déposée dans la boîte d’envoi du serveur, ${outbox()})`,
    );
    expect(mailsTo('relance@boulangerie-martin.fr')).toHaveLength(1);
  });

  it('an appointment’s invitation to the customer', async () => {
    const { session } = await registered(server.url);
    const customerId = await customer(session, 'rdv@boulangerie-martin.fr');
    const created = await session.rest('POST', '/api/appointments', {
      title: 'Point chantier',
      date: daysFrom(7),
      start: '10:00',
      end: '11:30',
      location: '12 rue de la Paix, Paris',
      note: '',
      customer_id: customerId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invited = await session.rest('POST', `/api/appointments/${created.body.data.id}/invite`);
    expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
    expect(invited.body.messages).toBe(
      `Aucun serveur SMTP n’est configuré : l’invitation pour rdv@boulangerie-martin.fr est déposée dans la boîte d’envoi du serveur (${outbox()})`,
    );
    expect(mailsTo('rdv@boulangerie-martin.fr')).toHaveLength(1);
  });
});
