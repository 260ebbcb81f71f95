import fs from 'node:fs';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { testEnv } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { startSmtpServer } from '../helpers/smtp';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: App;
let url: string;
let dataDir: string;
let now = new Date('2026-10-20T08:00:00Z');

beforeAll(async () => {
  smtp = await startSmtpServer();
  const made = testEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, APP_URL: 'https://factures.exemple.fr' });
  dataDir = made.dataDir;
  app = await createApp(made.env, { archiveOnIssue: false, scheduler: false, now: () => now });
  url = await app.listen();
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const meeting = {
  title: 'Point chantier',
  date: '2026-10-24',
  start: '10:00',
  end: '11:30',
  location: '12 rue de la Paix, Paris',
  note: '',
};

async function create(session: Session, body: Record<string, unknown>) {
  const answer = await session.rest('POST', '/api/appointments', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

async function customer(session: Session, name = 'Boulangerie Martin', email = 'contact@boulangerie-martin.fr'): Promise<number> {
  const answer = await session.rest('POST', '/api/customers', {
    name,
    email,
    address: { line1: '3 rue du Pain', postal_code: '75011', city: 'Paris' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.id;
}

/** Parses a feed with ical.js, registering its VTIMEZONE, and answers each event's UTC start and end. */
function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const tz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      summary: event.summary,
      location: event.location,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      tzid: event.startDate.zone?.tzid,
      allDay: event.startDate.isDate,
    };
  });
}

describe('appointments (REST and tRPC)', () => {
  it('creates from typed times (9h30, 9:30 pm, 21:30:05), lists a period in order, edits, moves and deletes', async () => {
    const { session } = await registered(url);
    const a = await create(session, { ...meeting, start: '9h30', end: '10 h 45' });
    expect(a).toMatchObject({
      title: 'Point chantier',
      date: '2026-10-24',
      start: '09:30',
      end: '10:45',
      status: 'planned',
      all_day: false,
    });
    const b = await create(session, { title: 'Appel', date: '2026-10-24', start: '9:30 pm', end: '21:30:05' });
    expect(b).toMatchObject({ start: '21:30', end: '21:30:05' });
    const c = await create(session, { title: 'Salon', date: '2026-10-25', all_day: true, start: '10:00', end: '09:00' });
    expect(c).toMatchObject({ all_day: true, start: null, end: null });
    await create(session, { title: 'Hors période', date: '2026-11-02', start: '08:00', end: '09:00' });

    const list = await session.rest('GET', '/api/appointments?from=2026-10-24&to=2026-10-25');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(3);
    expect(list.body.data.map((x: { title: string }) => x.title)).toEqual(['Point chantier', 'Appel', 'Salon']);

    // Moved by drag: the same appointment, another day and hour.
    const moved = await session.rest('PUT', `/api/appointments/${a.id}`, { ...meeting, date: '2026-10-26', start: '14:00', end: '15:15' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ messages: 'Mis à jour avec succès', data: { date: '2026-10-26', start: '14:00', end: '15:15' } });

    const viaTrpc = await session.trpc().appointments.get.query({ id: a.id });
    expect(viaTrpc.date).toBe('2026-10-26');

    expect((await session.rest('DELETE', `/api/appointments/${b.id}`)).body).toEqual({ messages: 'Supprimé avec succès' });
    expect((await session.rest('GET', `/api/appointments/${b.id}`)).status).toBe(404);
  });

  it('overlapping appointments are allowed', async () => {
    const { session } = await registered(url);
    await create(session, meeting);
    await create(session, { ...meeting, title: 'Autre', start: '10:30', end: '12:00' });
    expect((await session.rest('GET', '/api/appointments?from=2026-10-24&to=2026-10-24')).body.total).toBe(2);
  });

  it.each([
    [{ ...meeting, start: '11:00', end: '10:00' }, 'La fin doit être après le début'],
    [{ ...meeting, start: '10:00', end: '10:00' }, 'La fin doit être après le début'],
    [{ ...meeting, date: '2026-02-30' }, 'Date : date attendue au format AAAA-MM-JJ (une date qui existe)'],
    [{ ...meeting, start: '25:00' }, 'Début : « 25:00 » n’est pas une heure (ex. 09:30, 9h30, 9:30 pm)'],
    [{ ...meeting, end: '9:60' }, 'Fin : « 9:60 » n’est pas une heure (ex. 09:30, 9h30, 9:30 pm)'],
    [{ ...meeting, title: ' ' }, 'Le titre est obligatoire'],
    [{ ...meeting, start: undefined }, 'Début : heure attendue (ex. 09:30), ou « toute la journée »'],
    [{ ...meeting, status: 'fini' }, 'Statut : planned (prévu), done (effectué) ou cancelled (annulé)'],
    [{ ...meeting, reminder_minutes: -5 }, 'Rappel : il ne peut être négatif'],
    [{ ...meeting, customer_id: 99999 }, 'Client : introuvable'],
  ])('refuses %o with a French 400', async (body, message) => {
    const { session } = await registered(url);
    const answer = await session.rest('POST', '/api/appointments', body);
    expect(answer.status).toBe(400);
    expect([answer.body.messages].flat().join(' | ')).toContain(message);
  });

  it('a period whose end is before its start, or a date that does not exist, is a French 400', async () => {
    const { session } = await registered(url);
    const reversed = await session.rest('GET', '/api/appointments?from=2026-10-24&to=2026-10-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.messages).toBe('Période : la date de fin est avant la date de début');
    const wrong = await session.rest('GET', '/api/appointments?from=2026-02-30');
    expect(wrong.status).toBe(400);
    expect([wrong.body.messages].flat().join()).toContain('Du : date attendue');
  });

  it('another organisation’s appointment or customer is unknown: 404 or 400, never touched', async () => {
    const { session: owner } = await registered(url);
    const { session: other } = await registered(url);
    const theirs = await create(owner, meeting);
    const theirCustomer = await customer(owner);
    expect((await other.rest('GET', `/api/appointments/${theirs.id}`)).status).toBe(404);
    const put = await other.rest('PUT', `/api/appointments/${theirs.id}`, meeting);
    expect(put.status).toBe(404);
    expect(put.body.messages).toBe('Rendez-vous introuvable');
    expect((await other.rest('DELETE', `/api/appointments/${theirs.id}`)).status).toBe(404);
    expect((await other.rest('GET', `/api/appointments/${theirs.id}/ics`)).status).toBe(404);
    expect((await other.rest('POST', `/api/appointments/${theirs.id}/invite`)).status).toBe(404);
    const borrowed = await other.rest('POST', '/api/appointments', { ...meeting, customer_id: theirCustomer });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.messages).toBe('Client : introuvable');
    expect((await other.rest('GET', '/api/appointments')).body.total).toBe(0);
    expect((await owner.rest('GET', `/api/appointments/${theirs.id}`)).body.title).toBe('Point chantier');
  });
});

describe('billing done appointments', () => {
  it('« Facturer » makes one draft invoice line per appointment (hours × hourly rate), marks them billed, never twice', async () => {
    const { session } = await registered(url);
    const customerId = await customer(session);
    const item = await session.rest('POST', '/api/items', { name: 'Conseil', unit: 'h', unit_price: 60 });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const long = await create(session, { ...meeting, customer_id: customerId, start: '09:00', end: '10:20', status: 'done' });
    const short = await create(session, {
      ...meeting,
      date: '2026-10-26',
      customer_id: customerId,
      start: '14:00',
      end: '14:45',
      status: 'done',
    });
    const planned = await create(session, { ...meeting, date: '2026-10-27', customer_id: customerId });

    const billable = await session.rest('GET', `/api/appointments?customer_id=${customerId}&billable=true`);
    expect(billable.body.data.map((a: { id: number }) => a.id)).toEqual([long.id, short.id]);

    const notDone = await session.rest('POST', '/api/appointments/bill', {
      customer_id: customerId,
      item_id: item.body.data.id,
      appointment_ids: [planned.id],
    });
    expect(notDone.status).toBe(400);
    expect(notDone.body.messages).toBe('« Point chantier » du 27/10/2026 : seul un rendez-vous effectué se facture');

    const billed = await session.rest('POST', '/api/appointments/bill', {
      customer_id: customerId,
      item_id: item.body.data.id,
      appointment_ids: [long.id, short.id],
    });
    expect(billed.status, JSON.stringify(billed.body)).toBe(201);
    const invoice = billed.body.data;
    expect(invoice).toMatchObject({ type: 'invoice', status: 'draft', customer_id: customerId });
    expect(invoice.items).toHaveLength(2);
    // 1 h 20 = 1.3333 h (4 decimals, as every quantity) at 60 €; 45 min = 0.75 h exactly.
    expect(invoice.items.map((l: { quantity: number }) => l.quantity)).toEqual([1.3333, 0.75]);
    expect(invoice.items[0].description).toBe('Rendez-vous du 24/10/2026, 09:00 – 10:20 (1 h 20 min) : Point chantier');
    expect(invoice.items[1].unit_price).toBe(60);
    expect(invoice.items[1].subtotal).toBe(45);

    const after = await session.rest('GET', `/api/appointments/${long.id}`);
    expect(after.body.billed_document_id).toBe(invoice.id);
    const again = await session.rest('POST', '/api/appointments/bill', {
      customer_id: customerId,
      item_id: item.body.data.id,
      appointment_ids: [long.id],
    });
    expect(again.status).toBe(400);
    expect(again.body.messages).toBe('« Point chantier » du 24/10/2026 : déjà facturé');
    expect((await session.rest('GET', `/api/appointments?customer_id=${customerId}&billable=1`)).body.total).toBe(0);

    // What was invoiced stays as invoiced.
    const move = await session.rest('PUT', `/api/appointments/${long.id}`, {
      ...meeting,
      customer_id: customerId,
      start: '09:00',
      end: '12:00',
      status: 'done',
    });
    expect(move.status).toBe(409);
    expect((await session.rest('DELETE', `/api/appointments/${long.id}`)).status).toBe(409);
  });

  it('another customer’s appointment, an unknown item or customer are refused in French', async () => {
    const { session } = await registered(url);
    const first = await customer(session);
    const second = await customer(session, 'Garage Dupont', 'garage@dupont.fr');
    const item = (await session.rest('POST', '/api/items', { name: 'Conseil', unit: 'h', unit_price: 60 })).body.data;
    const a = await create(session, { ...meeting, customer_id: first, status: 'done' });
    const wrongCustomer = await session.rest('POST', '/api/appointments/bill', {
      customer_id: second,
      item_id: item.id,
      appointment_ids: [a.id],
    });
    expect(wrongCustomer.status).toBe(400);
    expect(wrongCustomer.body.messages).toBe('« Point chantier » du 24/10/2026 : ce n’est pas un rendez-vous de Garage Dupont');
    expect(
      (await session.rest('POST', '/api/appointments/bill', { customer_id: first, item_id: 99999, appointment_ids: [a.id] })).status,
    ).toBe(404);
    const noCustomer = await session.rest('POST', '/api/appointments/bill', {
      customer_id: 99999,
      item_id: item.id,
      appointment_ids: [a.id],
    });
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.messages).toBe('Client : introuvable');
    const none = await session.rest('POST', '/api/appointments/bill', { customer_id: first, item_id: item.id, appointment_ids: [] });
    expect(none.status).toBe(400);
    expect([none.body.messages].flat().join()).toContain('Choisissez au moins un rendez-vous effectué');
  });
});

describe('calendar feed and .ics files', () => {
  it('the private feed parses with ical.js and keeps 10:00 Paris across the October change (08:00Z, then 09:00Z)', async () => {
    const { session } = await registered(url);
    await create(session, {
      ...meeting,
      title: 'Avant, le changement; heure',
      date: '2026-10-24',
      start: '10:00',
      end: '11:00',
      note: 'Ligne 1\nLigne 2, fin',
    });
    await create(session, { ...meeting, title: 'Après le changement', date: '2026-10-26', start: '10:00', end: '11:00' });
    await create(session, { title: 'Salon', date: '2026-10-25', all_day: true });
    await create(session, { ...meeting, title: 'Printemps', date: '2026-03-30', start: '10:00', end: '11:00' });

    const made = await session.rest('POST', '/api/appointments/feed');
    expect(made.status).toBe(201);
    const feedUrl: string = made.body.data.url;
    expect(feedUrl).toMatch(/^https:\/\/factures\.exemple\.fr\/api\/calendar\/[\w-]{43,}\.ics$/);
    const path = feedUrl.replace('https://factures.exemple.fr', '');

    const response = await fetch(`${url}${path}`); // no cookie: calendar apps have none
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('BEGIN:VTIMEZONE');
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const events = parseFeed(text);
    const byTitle = Object.fromEntries(events.map((e) => [e.summary, e]));
    expect(byTitle['Avant, le changement; heure']).toMatchObject({ start: '2026-10-24T08:00:00.000Z', end: '2026-10-24T09:00:00.000Z' });
    expect(byTitle['Après le changement']).toMatchObject({ start: '2026-10-26T09:00:00.000Z', end: '2026-10-26T10:00:00.000Z' });
    expect(byTitle.Printemps).toMatchObject({ start: '2026-03-30T08:00:00.000Z' });
    expect(byTitle.Salon?.allDay).toBe(true);
    expect(byTitle['Après le changement']?.location).toBe('12 rue de la Paix, Paris');

    // Another user's feed never shows these; after revoking, the address is a 404.
    expect((await session.rest('GET', '/api/appointments/feed')).body.created_at).not.toBeNull();
    expect((await session.rest('DELETE', '/api/appointments/feed')).body).toEqual({ messages: 'Lien d’abonnement révoqué' });
    const revoked = await fetch(`${url}${path}`);
    expect(revoked.status).toBe(404);
    expect((await revoked.json()).messages).toBe('Calendrier introuvable : ce lien a été révoqué ou n’a jamais existé');
    expect((await fetch(`${url}/api/calendar/not-a-token.ics`)).status).toBe(404);
  });

  it('a new feed address revokes the previous one; each user has their own', async () => {
    const { session } = await registered(url);
    const first = (await session.rest('POST', '/api/appointments/feed')).body.data.url.replace('https://factures.exemple.fr', '');
    const second = (await session.rest('POST', '/api/appointments/feed')).body.data.url.replace('https://factures.exemple.fr', '');
    expect(first).not.toBe(second);
    expect((await fetch(`${url}${first}`)).status).toBe(404);
    expect((await fetch(`${url}${second}`)).status).toBe(200);
  });

  it('one appointment downloads as an .ics with escaped text', async () => {
    const { session } = await registered(url);
    const a = await create(session, { ...meeting, title: 'Réunion, budget; 2027', note: 'A\\B' });
    const file = await session.rest('GET', `/api/appointments/${a.id}/ics`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain(`rendez-vous-2026-10-24-${a.id}.ics`);
    expect(file.body).toContain('SUMMARY:Réunion\\, budget\\; 2027');
    const [event] = parseFeed(file.body);
    expect(event).toMatchObject({ summary: 'Réunion, budget; 2027', start: '2026-10-24T08:00:00.000Z', end: '2026-10-24T09:30:00.000Z' });
  });
});

describe('reminders and invitations by e-mail', () => {
  it('the appointment-reminders job mails the user once, when the reminder time has come', async () => {
    const { session, user } = await registered(url);
    await create(session, { ...meeting, title: 'Rappel test', date: '2026-10-26', start: '10:00', end: '11:00', reminder_minutes: 60 });
    const runReminders = async () => (await app.scheduler.runDue()).find((r) => r.job === 'appointment-reminders');
    now = new Date('2026-10-26T07:59:00Z'); // 08:59 Paris: too early
    expect((await runReminders())?.message).toBe('0 rappel envoyé');
    now = new Date('2026-10-26T08:01:00Z'); // 09:01 Paris, after the change: one hour before 10:00
    expect((await runReminders())?.message).toBe('1 rappel envoyé');
    const mail = await smtp.waitFor((m) => m.mail.subject?.startsWith('Rappel\u00a0: Rappel test') ?? false);
    expect(mail.to).toEqual([user.email]);
    expect(mail.mail.text).toContain('le 26 octobre 2026 de 10:00 à 11:00');
    now = new Date('2026-10-26T08:06:00Z');
    expect((await runReminders())?.message).toBe('0 rappel envoyé');
    expect(smtp.received.filter((m) => m.mail.subject?.startsWith('Rappel\u00a0: Rappel test'))).toHaveLength(1);
  });

  it('invites the customer with the .ics attached; without e-mail, says so', async () => {
    const { session } = await registered(url);
    const customerId = await customer(session, 'Atelier Leroy', 'leroy@atelier.fr');
    const a = await create(session, { ...meeting, customer_id: customerId });
    const sent = await session.trpc().appointments.invite.mutate({ id: a.id });
    expect(sent.messages).toBe('Invitation envoyée à leroy@atelier.fr');
    const mail = await smtp.waitFor((m) => m.to.includes('leroy@atelier.fr'));
    const ics = mail.mail.attachments.find((x) => x.filename === 'invitation.ics');
    expect(ics?.contentType).toBe('text/calendar');
    const text = ics?.content.toString('utf8') ?? '';
    expect(text).toContain('METHOD:REQUEST');
    expect(text).toContain('ATTENDEE;CN="Atelier Leroy"');
    expect(parseFeed(text)[0]?.start).toBe('2026-10-24T08:00:00.000Z');

    const bare = await session.rest('POST', '/api/customers', { name: 'Sans Mail' });
    const b = await create(session, { ...meeting, customer_id: bare.body.data.id });
    const refused = await session.rest('POST', `/api/appointments/${b.id}/invite`);
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe('Sans Mail n’a pas d’adresse e-mail : ajoutez-la sur sa fiche client');
    const none = await create(session, meeting);
    expect((await session.rest('POST', `/api/appointments/${none.id}/invite`)).body.messages).toBe(
      'Ce rendez-vous n’a pas de client à inviter',
    );
  });
});
