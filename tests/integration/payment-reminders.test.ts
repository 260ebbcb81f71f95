import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { clock } from '../../src/server/clock';
import { Scheduler } from '../../src/server/scheduler/scheduler';
import { JOBS } from '../../src/server/scheduler/jobs';
import { defaultReminderSettings } from '../../src/shared/schemas/reminders';
import { PROPOSED_AT_MOST } from '../../src/server/services/payment-reminders';
import { copyDocument, withServerDb } from '../helpers/database';
import { removeTestEnv, testEnv, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { customerWithEmail, draft, issued, line, readyToInvoice } from '../helpers/documents';
import { startSilentServer, startSmtpServer } from '../helpers/smtp';
import { keepPdf } from '../helpers/kept-pdf';
import { withFrenchSpaces } from '../../src/shared/typography';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let refusing: Awaited<ReturnType<typeof startSmtpServer>>;
let silent: Awaited<ReturnType<typeof startSilentServer>>;
const apps: App[] = [];
const realNow = clock.now;
// The scheduler's and the server's one clock: the simulated day, at 09:00 in Paris.
let now = new Date('2026-11-02T08:00:00Z');
const setDay = (day: string) => {
  now = new Date(`${day}T08:00:00Z`);
};
let env: ReturnType<typeof testEnv>;
let app: App;
let url: string;
/** What keepPdf needs of a test server. */
let server: TestServer;

async function boot(): Promise<App> {
  const booted = await createApp(env.env, { archiveOnIssue: false, scheduler: false, now: () => now });
  apps.push(booted);
  return booted;
}

beforeAll(async () => {
  clock.now = () => now;
  smtp = await startSmtpServer();
  refusing = await startSmtpServer({ refuseRecipient: 'inconnu@client.fr' });
  silent = await startSilentServer();
  env = testEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, APP_URL: 'https://factures.exemple.fr' });
  app = await boot();
  url = await app.listen();
  server = {
    url,
    dataDir: env.dataDir,
    dbPath: env.dbPath,
    databaseUrl: env.databaseUrl,
    app,
    close: async () => {},
  };
});
afterAll(async () => {
  clock.now = realNow;
  for (const a of apps) await a.close();
  await Promise.all([smtp.close(), refusing.close(), silent.close()]);
  removeTestEnv(env.env, env.dataDir);
});

const automatic = () => ({ steps: defaultReminderSettings().steps.map((s) => ({ ...s, mode: 'automatic' })) });

async function invoice(session: Session, customerId: number, maturity: string, price = 1000) {
  const doc = await issued(session, { customer_id: customerId, maturity, items: [line('Conseil', 1, price)] });
  return { ...doc, pdf: await keepPdf(server, doc.id) };
}

function reminderRows() {
  return withServerDb(server, (db) =>
    db
      .selectFrom('payment_reminders as r')
      .innerJoin('documents as d', 'd.id', 'r.document_id')
      .select(['d.id', 'd.number', 'r.step', 'r.status', 'r.attempts', 'r.sent_at'])
      .orderBy('d.number')
      .orderBy('r.step')
      .execute(),
  );
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('payment reminders over a simulated year (injected clock, real SMTP server)', () => {
  it('sends exactly the due steps, once each, with the kept PDF; only the latest after days down; none once paid', async () => {
    setDay('2026-11-02');
    const { session } = await registered(url);
    await readyToInvoice(session);
    expect((await session.rest('PUT', '/api/settings/reminders', automatic())).status).toBe(200);
    const alpha = await customerWithEmail(session, 'Alpha SARL', 'compta@alpha.fr');
    const beta = await customerWithEmail(session, 'Beta SAS', 'factures@beta.fr');
    const gamma = await customerWithEmail(session, 'Gamma', 'gamma@gamma.fr');
    const noMail = await customerWithEmail(session, 'Sans Adresse', '');
    const a = await invoice(session, alpha, '2026-11-20');
    const b = await invoice(session, beta, '2026-12-02', 600);
    const c = await invoice(session, gamma, '2026-12-31');
    await invoice(session, noMail, '2026-11-25');
    // Credited in full: cancelled, never reminded.
    const credited = await invoice(session, alpha, '2026-11-25');
    const credit = await session.rest('POST', `/api/documents/${credited.id}/convert`, { type: 'credit' });
    expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);
    // A draft is no invoice to remind.
    await draft(session, { customer_id: alpha, maturity: '2026-11-20', items: [line('Conseil', 1, 100)] });

    const seen = new Map<number, string>(); // index of the received mail → the simulated day it left
    // The scheduler is down from 21 December to 19 January: on the 20th, Gamma (due 31 December) gets the 15-day step only.
    const down = (day: string) => day >= '2026-12-21' && day <= '2027-01-19';
    let other: Scheduler | undefined;
    // Each day runs the reminders' job alone: the other nine, run every simulated day, tripled the year's time on
    // PostgreSQL and have their own tests. They all run once at the end, for the « Tâches planifiées » panel.
    const reminding = ['payment-reminders'];
    for (let day = '2026-11-02'; day <= '2027-11-02'; day = addDays(day, 1)) {
      setDay(day);
      // The user comes back every day (the session stays alive over the simulated year); the scheduler is down a while.
      expect((await session.rest('GET', '/api/reminders')).status).toBe(200);
      if (down(day)) continue;
      if (day === '2026-12-05') await session.rest('POST', `/api/documents/${b.id}/payments`, { date: day, amount: 300 });
      if (day === '2026-12-18') await session.rest('POST', `/api/documents/${b.id}/payments`, { date: day, amount: 420 });
      if (day === '2027-01-20') {
        // The restart: a new process on the same database, and a second one running at the same time.
        app = await boot();
        other = new Scheduler(app.connection.db, JOBS, () => now, undefined, app.deps);
      }
      const runs = other
        ? await Promise.all([app.scheduler.runDue(reminding), other.runDue(reminding)])
        : [await app.scheduler.runDue(reminding)];
      // Of two processes at once, one runs the job while the other finds its lease taken, unless the first was done
      // before the second asked (common on PostgreSQL, where each query is a round trip): the second then runs it
      // again and finds nothing left to send. Either way no mail leaves twice (the list checked below).
      const reminders = runs.flat().filter((r) => r.job === 'payment-reminders');
      expect(reminders.some((r) => r.ran)).toBe(true);
      for (const r of reminders) expect(r.message).toMatch(r.ran ? /^\d+ relances? envoyées?$/ : /^Déjà en cours dans un autre processus$/);
      await app.scheduler.runDue(reminding); // twice the same day: nothing more
      for (let i = 0; i < smtp.received.length; i += 1) if (!seen.has(i)) seen.set(i, day);
    }
    await app.scheduler.runDue();

    const sent = smtp.received
      .map((m, i) => `${seen.get(i)} ${m.to.join(',')} ${m.mail.subject}`)
      .filter((m) => !m.endsWith('Activez votre compte Facturier'));
    expect(sent).toEqual(
      [
        `2026-11-17 compta@alpha.fr Facture ${a.number} : échéance le 20/11/2026`,
        `2026-11-27 compta@alpha.fr Rappel : facture ${a.number} en attente de règlement`,
        `2026-11-29 factures@beta.fr Facture ${b.number} : échéance le 02/12/2026`,
        `2026-12-05 compta@alpha.fr Deuxième rappel : facture ${a.number} impayée`,
        `2026-12-09 factures@beta.fr Rappel : facture ${b.number} en attente de règlement`,
        `2026-12-17 factures@beta.fr Deuxième rappel : facture ${b.number} impayée`,
        `2026-12-20 compta@alpha.fr Dernier rappel avant mise en demeure : facture ${a.number}`,
        `2027-01-20 gamma@gamma.fr Deuxième rappel : facture ${c.number} impayée`,
        `2027-01-30 gamma@gamma.fr Dernier rappel avant mise en demeure : facture ${c.number}`,
      ].map(withFrenchSpaces),
    ); // as a mail client shows them: no line starts with « : »
    // Each carries the invoice's kept PDF, byte for byte, its amount still due and its share link.
    const first = smtp.received.find((m) => m.to.includes('compta@alpha.fr'))?.mail;
    expect(first?.attachments.map((att) => [att.filename, att.contentType])).toEqual([[`Facture-${a.number}.pdf`, 'application/pdf']]);
    expect(Buffer.compare(first?.attachments[0]?.content ?? Buffer.alloc(0), a.pdf)).toBe(0);
    const partly = smtp.received.find((m) => m.mail.subject?.startsWith(withFrenchSpaces(`Deuxième rappel : facture ${b.number}`)))?.mail;
    expect(partly?.text).toContain('420,00\u00a0€ restent à régler'); // 720 € TTC, 300 paid on 5 December
    expect(partly?.text).toContain(`https://factures.exemple.fr/share/${b.uuid}`);

    // Recorded in the table, once per step, and in the invoice's history (the audit log).
    expect((await reminderRows()).filter((r) => r.id === a.id).map((r) => [r.step, r.status, r.attempts])).toEqual([
      [-3, 'sent', 1],
      [7, 'sent', 1],
      [15, 'sent', 1],
      [30, 'sent', 1],
    ]);
    const ofA = await session.rest('GET', `/api/documents/${a.id}/reminders`);
    expect(ofA.body.total).toBe(4);
    expect(ofA.body.data[3]).toMatchObject({
      step: 30,
      status: 'sent',
      trigger: 'automatic',
      recipients: 'compta@alpha.fr',
      sent_at: '2026-12-20T08:00:00.000Z',
    });
    const audit = await session.rest('GET', '/api/audit?per_page=100');
    const logged = audit.body.data.filter((e: { event: string }) => e.event === 'reminder');
    expect(logged).toHaveLength(9);
    // Newest first: Gamma's two, after the days down (its earlier steps were skipped, not sent late).
    const ofC = logged.filter((e: { content: { document: { id: number } } }) => e.content.document.id === c.id);
    expect(ofC.map((e: { content: { reminder: unknown } }) => e.content.reminder)).toEqual([
      {
        step: 30,
        trigger: 'automatic',
        recipients: 'gamma@gamma.fr',
        subject: `Dernier rappel avant mise en demeure : facture ${c.number}`,
      },
      { step: 15, trigger: 'automatic', recipients: 'gamma@gamma.fr', subject: `Deuxième rappel : facture ${c.number} impayée` },
    ]);
    expect((await session.rest('GET', '/api/audit/verify')).body.ok).toBe(true);

    // The last run of each job is visible, with the next one.
    const jobs = await session.rest('GET', '/api/jobs');
    expect(jobs.body.data.map((j: { name: string }) => j.name)).toEqual(JOBS.map((j) => j.name));
    expect(jobs.body.data.find((j: { name: string }) => j.name === 'payment-reminders')).toMatchObject({
      label: 'Relances de paiement',
      last_status: 'ok',
      last_finished_at: '2027-11-02T08:00:00.000Z',
      next_run_at: '2027-11-03T08:00:00.000Z',
    });
    expect(jobs.body.data.find((j: { name: string }) => j.name === 'einvoice-poll')).toMatchObject({ last_status: 'ok' });
  }, 120_000);
});

describe('proposed reminders and the Relances list', () => {
  it('lists what is late and what is due today; the job leaves proposed steps; one click sends and records them', async () => {
    setDay('2026-11-02');
    const { session } = await registered(url);
    await readyToInvoice(session);
    const delta = await customerWithEmail(session, 'Delta', 'delta@delta.fr');
    const late = await invoice(session, delta, '2026-11-10');
    const soon = await invoice(session, delta, '2026-11-28');
    const later = await invoice(session, delta, '2026-12-31');
    setDay('2026-11-25');
    const before = smtp.received.length;
    await app.scheduler.runDue(); // the defaults are proposed: the job sends nothing
    expect(smtp.received.length).toBe(before);

    const list = await session.rest('GET', '/api/reminders');
    expect(list.status).toBe(200);
    expect(
      list.body.data.map((r: { number: string; days_late: number; due_step: unknown }) => [r.number, r.days_late, r.due_step]),
    ).toEqual([
      [late.number, 15, { offset_days: 15, mode: 'proposed', label: '15 jours après l’échéance' }],
      [soon.number, -3, { offset_days: -3, mode: 'proposed', label: '3 jours avant l’échéance' }],
    ]);
    expect(list.body.data.some((r: { number: string }) => r.number === later.number)).toBe(false);
    expect(list.body.data[0]).toMatchObject({
      customer_name: 'Delta',
      customer_email: 'delta@delta.fr',
      amount_due: 1200,
      last_reminder: null,
    });

    const sent = await session.rest('POST', `/api/reminders/${late.id}/send`);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      messages: `Relance de la facture ${late.number} envoyée à delta@delta.fr`,
      data: { step: 15, status: 'sent', trigger: 'manual', attempts: 1 },
    });
    const mail = await smtp.waitFor((m) => m.mail.subject === withFrenchSpaces(`Deuxième rappel : facture ${late.number} impayée`));
    expect(mail.mail.attachments[0]?.filename).toBe(`Facture-${late.number}.pdf`);
    // Twice: the step is gone; nothing leaves again.
    const again = await session.rest('POST', `/api/reminders/${late.id}/send`);
    expect(again.status).toBe(409);
    expect(again.body.messages).toMatch(/^Aucune relance n’est à envoyer aujourd’hui pour la facture/);
    const after = await session.rest('GET', '/api/reminders');
    expect(after.body.data[0]).toMatchObject({ number: late.number, due_step: null, last_reminder: { step: 15, status: 'sent' } });
    const audit = await session.rest('GET', '/api/audit?per_page=100');
    expect(audit.body.data.find((e: { event: string }) => e.event === 'reminder')?.content.user).not.toBeNull();
  });
});

describe('the Relances list at scale', () => {
  it('answers for an organisation owing on 40,000 invoices, more than one SQL statement may name', async () => {
    setDay('2026-11-02');
    const { session } = await registered(url);
    await readyToInvoice(session);
    const echo = await customerWithEmail(session, 'Echo', 'echo@echo.fr');
    const first = await invoice(session, echo, '2026-11-02');
    const OWED = 40_000;
    await copyDocument(server, first.id, OWED);
    setDay('2026-11-20');
    const list = await session.rest('GET', '/api/reminders');
    expect(list.status).toBe(200);
    // One page of rows and the head's counts over all of them; the bulk send takes the first hundred, most overdue first.
    expect(list.body).toMatchObject({ total: OWED + 1, late: OWED + 1, due_today: OWED + 1 });
    expect(list.body.proposed).toHaveLength(PROPOSED_AT_MOST);
    expect(list.body.proposed[0]).toBe(first.id);
    expect(list.body.data).toHaveLength(25);
    expect(list.body.data[0]).toMatchObject({ number: first.number, days_late: 18, customer_email: 'echo@echo.fr' });
    const last = await session.rest('GET', `/api/reminders?page=${Math.ceil((OWED + 1) / 100)}&per_page=100`);
    expect(last.status).toBe(200);
    expect(last.body.data.at(-1)).toMatchObject({
      number: `${first.number}-${OWED}`,
      days_late: 18,
      due_step: { offset_days: 15, mode: 'proposed' },
      last_reminder: null,
    });
    const tooMany = await session.rest('GET', '/api/reminders?per_page=1000');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.messages).toContain('Cent lignes par page au plus');
  });
});

describe('payment reminders: bad input', () => {
  it.each([
    ['an offset over a year', { offset_days: 400 }, /^Délai de la relance : 365 jours après l’échéance au plus/],
    ['an offset over a year before', { offset_days: -366 }, /^Délai de la relance : 365 jours avant l’échéance au plus/],
    ['a non-integer offset', { offset_days: 2.5 }, /^Délai de la relance : un nombre entier de jours est attendu/],
    ['an empty subject', { subject: '  ' }, /^Objet de la relance : ne peut pas être vide/],
    ['an unknown placeholder', { body: 'Payez {montant}' }, /^Message de la relance : variable inconnue \{montant\}/],
    ['an unknown mode', { mode: 'souvent' }, /^Mode de la relance/],
  ])('refuses %s with 400 and keeps the schedule', async (_label, patch, message) => {
    const { session } = await registered(url);
    const steps = defaultReminderSettings().steps;
    const answer = await session.rest('PUT', '/api/settings/reminders', { steps: [{ ...steps[0], ...patch }, steps[1]] });
    expect(answer.status).toBe(400);
    expect([answer.body.messages].flat()).toContainEqual(expect.stringMatching(message));
    expect((await session.rest('GET', '/api/settings/reminders')).body).toEqual(defaultReminderSettings());
  });

  it('refuses two steps on the same day', async () => {
    const { session } = await registered(url);
    const [first] = defaultReminderSettings().steps;
    const answer = await session.rest('PUT', '/api/settings/reminders', { steps: [first, { ...first, subject: 'Autre' }] });
    expect(answer.status).toBe(400);
    expect([answer.body.messages].flat().join(' ')).toContain('Deux relances le même jour (3 jours avant l’échéance)');
  });

  it('sends no reminder for a draft, an estimate, a paid invoice; 404 for another organisation’s invoice', async () => {
    setDay('2026-12-15');
    const { session } = await registered(url);
    await readyToInvoice(session);
    const who = await customerWithEmail(session, 'Epsilon', 'eps@eps.fr');
    const drafted = await draft(session, { customer_id: who, maturity: '2026-11-20', items: [line('Conseil', 1, 100)] });
    const estimate = await issued(session, {
      type: 'estimate',
      customer_id: who,
      maturity: '2026-11-20',
      items: [line('Conseil', 1, 100)],
    });
    const paid = await invoice(session, who, '2026-11-20', 100);
    await session.rest('POST', `/api/documents/${paid.id}/payments`, { date: '2026-12-01', amount: 120 });
    for (const id of [drafted.id, estimate.id, paid.id]) {
      const answer = await session.rest('POST', `/api/reminders/${id}/send`);
      expect(answer.status).toBe(409);
      expect(answer.body.messages).toBe('Seule une facture émise qui reste à payer peut être relancée');
    }
    const owed = await invoice(session, who, '2026-11-20', 100);
    const { session: stranger } = await registered(url);
    for (const path of [`/api/reminders/${owed.id}/send`, `/api/documents/${owed.id}/reminders`]) {
      const answer = await stranger.rest(path.endsWith('send') ? 'POST' : 'GET', path);
      expect(answer.status).toBe(404);
    }
    expect((await reminderRows()).some((r) => r.id === owed.id)).toBe(false);
  });

  it('records a mail the SMTP server refuses as failed with why, never sent, and sends it at a later run', async () => {
    setDay('2026-11-02');
    const { session } = await registered(url);
    await readyToInvoice(session);
    await session.rest('PUT', '/api/settings/reminders', automatic());
    const email = await session.rest('GET', '/api/settings/email');
    await session.rest('PUT', '/api/settings/email', { ...email.body, smtp_url: `smtp://127.0.0.1:${refusing.port}` });
    const who = await customerWithEmail(session, 'Zeta', 'inconnu@client.fr');
    const owed = await invoice(session, who, '2026-11-20');

    setDay('2026-11-27');
    await app.scheduler.runDue();
    const manual = await session.rest('POST', `/api/reminders/${owed.id}/send`);
    expect(manual.status).toBe(502);
    expect(manual.body.messages).toMatch(
      /^La relance n’est pas partie : Le serveur SMTP 127\.0\.0\.1 a refusé l’expéditeur ou le destinataire \(code 550\).*Mailbox unavailable.*Elle n’est pas marquée envoyée et sera retentée\.$/,
    );
    expect((await reminderRows()).find((r) => r.id === owed.id)).toMatchObject({ step: 7, status: 'failed', attempts: 2, sent_at: null });
    const listed = await session.rest('GET', `/api/documents/${owed.id}/reminders`);
    expect(listed.body.data[0].error).toMatch(/code 550/);
    expect(refusing.received).toHaveLength(0);

    // The address is corrected: the next run sends the step, once.
    await session.rest('PUT', `/api/customers/${who}`, {
      name: 'Zeta',
      business_id: '732 829 320',
      email: 'zeta@client.fr',
      address: { line1: '1 rue', postal_code: '69002', city: 'Lyon' },
    });
    setDay('2026-11-28');
    await app.scheduler.runDue();
    await app.scheduler.runDue();
    expect(refusing.received.map((m) => m.to)).toEqual([['zeta@client.fr']]);
    expect((await reminderRows()).find((r) => r.id === owed.id)).toMatchObject({ step: 7, status: 'sent', attempts: 3 });
  });

  it('an SMTP server that never answers: a French message after the timeout, nothing marked sent', async () => {
    setDay('2026-11-02');
    const { session } = await registered(url);
    await readyToInvoice(session);
    const email = await session.rest('GET', '/api/settings/email');
    await session.rest('PUT', '/api/settings/email', { ...email.body, smtp_url: `smtp://127.0.0.1:${silent.port}` });
    const who = await customerWithEmail(session, 'Eta', 'eta@client.fr');
    const owed = await invoice(session, who, '2026-11-20');
    setDay('2026-11-18');
    const answer = await session.rest('POST', `/api/reminders/${owed.id}/send`);
    expect(answer.status).toBe(502);
    expect(answer.body.messages).toMatch(
      /^La relance n’est pas partie : Le serveur SMTP 127\.0\.0\.1 (n’a pas répondu à temps|ne répond pas)/,
    );
    expect((await reminderRows()).find((r) => r.id === owed.id)).toMatchObject({ status: 'failed', sent_at: null });
  }, 40_000);
});
