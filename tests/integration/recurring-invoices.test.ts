import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { Scheduler } from '../../src/server/scheduler/scheduler';
import { JOBS } from '../../src/server/scheduler/jobs';
import { withServerDb } from '../helpers/database';
import { removeTestEnv, testEnv } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { businessCustomer, line, readyToInvoice } from '../helpers/documents';
import { startSmtpServer } from '../helpers/smtp';
import { PDFDocument } from 'pdf-lib';
import { IssueArchiver } from '../../src/server/services/issue-archive';
import type { StoredDocument } from '../../src/shared/schemas/document-model';

/**
 * Recurring invoices. The scheduler is driven over a simulated year (2025, so that every invoice is dated
 * in the past and issues) with an injected clock, across a restart, two processes and days down.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let env: ReturnType<typeof testEnv>['env'];
let dataDir: string;
let databaseUrl: string;
let now = new Date('2025-01-01T08:00:00Z');
const clock = () => now;
const apps: App[] = [];
let app: App;
let session: Session;
let customerId: number;
let mailedCustomerId: number;

/** The PDF kept at issue, as production keeps it, made with pdf-lib: these tests run without a browser build. */
async function keptPdf(doc: StoredDocument): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText(`Facture ${doc.number}`);
  return Buffer.from(await pdf.save());
}

async function boot(): Promise<string> {
  app = await createApp(env, { archiveOnIssue: false, scheduler: false, now: clock });
  app.deps.issueArchiver = new IssueArchiver({ db: app.connection.db, dataDir, render: keptPdf });
  apps.push(app);
  return app.listen();
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ env, dataDir, databaseUrl } = testEnv({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, APP_URL: 'https://factures.exemple.fr' }));
  session = (await registered(await boot())).session;
  customerId = (await readyToInvoice(session)).customerId;
  const mailed = await session.rest('POST', '/api/customers', {
    ...businessCustomer,
    name: 'Fromagerie Durand',
    email: 'compta@fromagerie-durand.fr',
  });
  mailedCustomerId = mailed.body.data.id;
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await smtp.close();
  removeTestEnv(env, dataDir);
});

const runDates = async (recurringId: number) =>
  (
    await withServerDb({ databaseUrl }, (db) =>
      db
        .selectFrom('recurring_invoice_runs')
        .select('occurrence_date')
        .where('recurring_id', '=', recurringId)
        .orderBy('occurrence_date')
        .execute(),
    )
  ).map((r) => r.occurrence_date);
const runCount = () =>
  withServerDb({ databaseUrl }, async (db) => {
    const { n } = await db
      .selectFrom('recurring_invoice_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return n;
  });

async function runInvoicesJob(scheduler: Scheduler = app.scheduler) {
  return (await scheduler.runDue(['recurring-invoices'])).find((r) => r.job === 'recurring-invoices');
}

const model = (body: Record<string, unknown>) => ({
  customer_id: customerId,
  items: [line('Abonnement {month} {year}', 1, 100, 20, { description: 'Période : {period}' })],
  mode: 'issue',
  ...body,
});

describe('recurring invoices over a simulated year', () => {
  const ids: Record<'monthEnd' | 'biweekly' | 'quarterly', number> = { monthEnd: 0, biweekly: 0, quarterly: 0 };
  const expected = {
    monthEnd: ['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31'],
    biweekly: ['01-06', '01-20', '02-03', '02-17', '03-03', '03-17', '03-31'],
    quarterly: ['01-15', '04-15', '07-15'],
  };
  const in2025 = (days: string[]) => days.map((d) => `2025-${d}`);

  it('makes exactly the expected occurrences, once each, across runs twice, two processes, a restart and days down', async () => {
    const monthEnd = await session.rest('POST', '/api/recurring', model({ frequency: 'monthly', start_date: '2025-01-31' }));
    expect(monthEnd.status, JSON.stringify(monthEnd.body)).toBe(201);
    expect(monthEnd.body.data).toMatchObject({ next_date: '2025-01-31', frequency_label: 'Chaque mois', documents_count: 0 });
    ids.monthEnd = monthEnd.body.data.id;
    const biweekly = await session.rest(
      'POST',
      '/api/recurring',
      model({ frequency: 'weekly', interval: 2, start_date: '2025-01-06', end_date: '2025-03-31' }),
    );
    expect(biweekly.body.data.frequency_label).toBe('Toutes les 2 semaines');
    ids.biweekly = biweekly.body.data.id;
    const quarterly = await session.rest(
      'POST',
      '/api/recurring',
      model({ customer_id: mailedCustomerId, frequency: 'quarterly', start_date: '2025-01-15', occurrences: 3, mode: 'issue_and_send' }),
    );
    ids.quarterly = quarterly.body.data.id;

    for (let day = new Date('2025-01-01T08:00:00Z'); day < new Date('2026-01-01T00:00:00Z'); day = new Date(day.getTime() + 86_400_000)) {
      const iso = day.toISOString().slice(0, 10);
      if (iso >= '2025-09-01' && iso <= '2025-10-03') continue; // the server was down: caught up on 4 October
      now = day;
      if (iso === '2025-06-30') {
        // Two processes on the same database at once: together they make the 30 June occurrence once.
        const other = new Scheduler(app.connection.db, JOBS, clock, undefined, app.deps);
        const both = await Promise.all([runInvoicesJob(), runInvoicesJob(other)]);
        expect(both.map((r) => r?.message).sort()).toEqual(['1 facture générée', 'Déjà en cours dans un autre processus']);
        continue;
      }
      await runInvoicesJob();
      if (iso === '2025-03-31') {
        expect((await runInvoicesJob())?.message).toBe('0 facture générée'); // run twice: nothing more
        // A restart on the same database.
        await app.close();
        const cookie = session.cookie;
        session = new Session(await boot());
        session.cookie = cookie;
        expect((await runInvoicesJob())?.message).toBe('0 facture générée');
      }
    }

    expect(await runDates(ids.monthEnd)).toEqual(in2025(expected.monthEnd));
    expect(await runDates(ids.biweekly)).toEqual(in2025(expected.biweekly));
    expect(await runDates(ids.quarterly)).toEqual(in2025(expected.quarterly));

    // Each issued, with consecutive numbers in the order they were made.
    const invoices = await withServerDb({ databaseUrl }, (db) =>
      db.selectFrom('documents').select(['counter', 'status', 'number']).where('type', '=', 'invoice').orderBy('counter').execute(),
    );
    expect(invoices).toHaveLength(22);
    expect(invoices.map((d) => d.counter)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(new Set(invoices.map((d) => d.number)).size).toBe(22);
    expect(invoices.every((d) => d.status !== 'draft')).toBe(true);

    // Days down: September's and the 3 October's… none; the 30 September occurrence was made on 4 October.
    const late = await session.rest('GET', `/api/recurring/${ids.monthEnd}`);
    expect(late.body).toMatchObject({ generated_until: '2025-12-31', next_date: '2026-01-31', documents_count: 12 });
    const september = late.body.runs.find((r: { occurrence_date: string }) => r.occurrence_date === '2025-09-30');
    const doc = await session.rest('GET', `/api/documents/${september.document_id}`);
    expect(doc.body).toMatchObject({ date: '2025-10-04', number: september.number });
    expect(doc.body.items[0]).toMatchObject({ item: 'Abonnement septembre 2025', description: 'Période : septembre 2025' });

    // Ended by its number of occurrences, and by its end date.
    const ended = await session.rest('GET', '/api/recurring');
    const byId = (id: number) => ended.body.data.find((r: { id: number }) => r.id === id);
    expect(byId(ids.quarterly)).toMatchObject({ next_date: null, documents_count: 3 });
    expect(byId(ids.biweekly)).toMatchObject({ next_date: null, documents_count: 7 });
  }, 120_000);

  it('« issue and send » mails each invoice to the customer with its PDF, read from a real SMTP server', async () => {
    const mails = smtp.received.filter((m) => m.to.includes('compta@fromagerie-durand.fr'));
    expect(mails).toHaveLength(3);
    const runs = (await session.rest('GET', `/api/recurring/${ids.quarterly}`)).body.runs as {
      number: string;
      status: string;
      error: string;
      document_id: number;
    }[];
    expect(runs.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    for (const run of runs) {
      const mail = mails.find((m) => m.mail.subject?.includes(run.number));
      expect(mail, run.number).toBeDefined();
      const pdf = mail?.mail.attachments.find((a) => a.contentType === 'application/pdf');
      expect(pdf?.content.subarray(0, 5).toString()).toBe('%PDF-');
      // The very PDF kept at its issue.
      const { uuid } = (await session.rest('GET', `/api/documents/${run.document_id}`)).body;
      const kept = await fetch(`${session.baseUrl}/documents/download/${uuid}`);
      expect(kept.status).toBe(200);
      expect(Buffer.from(await kept.arrayBuffer()).equals(pdf?.content ?? Buffer.alloc(0))).toBe(true);
    }
    const text = mails.map((m) => m.mail.text ?? '').join('\n');
    expect(text).toContain('https://factures.exemple.fr/share/');
  });

  it('a refused send leaves the invoice issued and the failure on its run, not retried into a duplicate', async () => {
    const noMail = await session.rest(
      'POST',
      '/api/recurring',
      model({ frequency: 'monthly', start_date: '2026-01-01', mode: 'issue_and_send' }),
    );
    const id = noMail.body.data.id;
    const made = await session.rest('POST', `/api/recurring/${id}/generate`);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.messages).toMatch(/^Facture .* émise, mais non envoyée : le client n’a pas d’adresse e-mail$/);
    expect(made.body.data).toMatchObject({ sent_at: null });
    expect(made.body.data.number).toMatch(/\d/);
    const after = (await session.rest('GET', `/api/recurring/${id}`)).body;
    expect(after.runs[0]).toMatchObject({ status: 'issued', error: 'Non envoyée : le client n’a pas d’adresse e-mail' });
    expect(after).toMatchObject({ generated_until: '2026-01-01', next_date: '2026-02-01', documents_count: 1 });
  });

  it('« Générer maintenant » makes the next occurrence today and moves the schedule on, once per occurrence', async () => {
    const created = await session.rest(
      'POST',
      '/api/recurring',
      model({ frequency: 'monthly', start_date: '2026-03-31', month_end: false, mode: 'draft' }),
    );
    const id = created.body.data.id;
    const first = await session.rest('POST', `/api/recurring/${id}/generate`);
    expect(first.status).toBe(201);
    expect(first.body.messages).toBe('Brouillon de facture créé, à vérifier avant de l’émettre');
    expect(first.body.data).toMatchObject({ status: 'draft', number: null, type: 'invoice', customer_id: customerId });
    expect(first.body.data.items[0].item).toBe('Abonnement mars 2026');
    const second = await session.rest('POST', `/api/recurring/${id}/generate`);
    expect(second.body.data.items[0].item).toBe('Abonnement avril 2026');
    const after = (await session.rest('GET', `/api/recurring/${id}`)).body;
    expect(after).toMatchObject({ generated_until: '2026-04-30', next_date: '2026-05-31', documents_count: 2 });
    expect(await runDates(id)).toEqual(['2026-03-31', '2026-04-30']);

    // The scheduler, on a day these occurrences were due, does not make them again.
    now = new Date('2026-05-01T08:00:00Z');
    expect((await runInvoicesJob())?.ran).toBe(true);
    expect(await runDates(id)).toEqual(['2026-03-31', '2026-04-30']);

    // An ended model has nothing left to make.
    const once = await session.rest(
      'POST',
      '/api/recurring',
      model({ frequency: 'yearly', start_date: '2026-01-01', occurrences: 1, mode: 'draft' }),
    );
    expect((await session.rest('POST', `/api/recurring/${once.body.data.id}/generate`)).status).toBe(201);
    const none = await session.rest('POST', `/api/recurring/${once.body.data.id}/generate`);
    expect(none.status).toBe(409);
    expect(none.body.messages).toBe('Cette facture régulière est terminée : il ne reste aucune facture à générer');
  });

  it('pause and resume: a paused model makes nothing, and resuming does not bill the time it was paused', async () => {
    const created = await session.rest('POST', '/api/recurring', model({ frequency: 'monthly', start_date: '2026-06-01', mode: 'draft' }));
    const id = created.body.data.id;
    const paused = await session.rest('POST', `/api/recurring/${id}/pause`, { paused: true });
    expect(paused.body).toMatchObject({ messages: 'Mise en pause', data: { paused: true } });
    now = new Date('2026-09-15T08:00:00Z');
    await runInvoicesJob();
    expect(await runDates(id)).toEqual([]);
    const resumed = await session.rest('POST', `/api/recurring/${id}/pause`, { paused: false });
    expect(resumed.body.data.paused).toBe(false);
    // Resumed today (the real 2026 clock of the server): the months before are skipped, the schedule goes on.
    expect(resumed.body.data.next_date > '2026-09-15').toBe(true);
  });
});

describe('recurring invoices: bad input', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no customer', { customer_id: undefined }, /^Client : choisissez le client à facturer$/],
    ['no lines', { items: [] }, /^Lignes : ajoutez au moins une ligne à facturer$/],
    ['end before start', { start_date: '2026-05-01', end_date: '2026-04-30' }, /^Date de fin : elle précède la date de début$/],
    ['0 occurrences', { occurrences: 0 }, /^Nombre de factures : 1 au moins$/],
    ['interval 0', { interval: 0 }, /^Intervalle : 1 au moins$/],
    ['interval 37', { interval: 37 }, /^Intervalle : 36 au plus$/],
    ['unknown frequency', { frequency: 'daily' }, /^Fréquence : weekly, monthly, quarterly ou yearly$/],
    ['unknown mode', { mode: 'later' }, /^Mode : draft, issue ou issue_and_send$/],
    ['bad start date', { start_date: '31/01/2026' }, /^Date de début : date attendue au format AAAA-MM-JJ$/],
  ];
  for (const [what, change, message] of cases) {
    it(`${what}: 400 in French, nothing written`, async () => {
      const before = (await session.rest('GET', '/api/recurring')).body.total;
      const answer = await session.rest('POST', '/api/recurring', {
        ...model({ frequency: 'monthly', start_date: '2026-01-01' }),
        ...change,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.messages).toMatch(message);
      expect((await session.rest('GET', '/api/recurring')).body.total).toBe(before);
    });
  }

  it('another organisation’s customer is refused, and its models are not found (404) by any door', async () => {
    const other = (await registered(session.baseUrl)).session;
    const before = (await other.rest('GET', '/api/recurring')).body.total;
    const refused = await other.rest('POST', '/api/recurring', model({ frequency: 'monthly', start_date: '2026-01-01' }));
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe('Client : introuvable');
    expect((await other.rest('GET', '/api/recurring')).body.total).toBe(before);

    const mine = (await session.rest('GET', '/api/recurring')).body.data[0];
    const runsBefore = await runCount();
    for (const [method, path, body] of [
      ['GET', `/api/recurring/${mine.id}`, undefined],
      ['PUT', `/api/recurring/${mine.id}`, model({ frequency: 'monthly', start_date: '2026-01-01' })],
      ['DELETE', `/api/recurring/${mine.id}`, undefined],
      ['POST', `/api/recurring/${mine.id}/generate`, undefined],
      ['POST', `/api/recurring/${mine.id}/pause`, { paused: true }],
    ] as const) {
      const answer = await other.rest(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.messages).toBe('Facture régulière introuvable');
    }
    expect(await runCount()).toBe(runsBefore);
    expect((await session.rest('GET', `/api/recurring/${mine.id}`)).body).toMatchObject({
      paused: mine.paused,
      updated_at: mine.updated_at,
    });
  });
});
