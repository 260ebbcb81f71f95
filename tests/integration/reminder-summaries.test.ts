import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import {
  claimReminder,
  countReminderList,
  finishReminder,
  proposedRemindersPlainQuery,
  proposedRemindersQuery,
  reminderCountsQuery,
} from '../../src/server/db/queries/payment-reminders';
import { readSummaries, rebuildSummaries } from '../../src/server/db/queries/summaries';
import { dueSpanWindows } from '../../src/server/services/payment-reminders';
import { addDays } from '../../src/shared/payment-terms';
import { defaultReminderSettings, reminderSettingsSchema, type ReminderSettings } from '../../src/shared/schemas/reminders';
import { copyDocument, withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { businessCustomer, draft, issued, line, readyToInvoice } from '../helpers/documents';

const BASE = '2026-12-01';
const INVOICES = 40;

const template = defaultReminderSettings().steps[0];
if (!template) throw new Error('no default step');

const stepState = fc.record({ offset: fc.integer({ min: -15, max: 45 }), enabled: fc.boolean(), proposed: fc.boolean() });
const stepsState = fc.uniqueArray(stepState, { selector: (s) => s.offset, maxLength: 6 });
const settingsOf = (steps: { offset: number; enabled: boolean; proposed: boolean }[]): ReminderSettings =>
  reminderSettingsSchema.parse({
    steps: steps.map((step) => ({
      ...template,
      offset_days: step.offset,
      enabled: step.enabled,
      mode: step.proposed ? 'proposed' : 'automatic',
    })),
  });

/** Steps that cover the cases by name: none, one after the due date, one before, several on both sides, one off. */
const NAMED_SETTINGS: ReminderSettings[] = [
  settingsOf([]),
  settingsOf([{ offset: 0, enabled: true, proposed: true }]),
  settingsOf([{ offset: -3, enabled: true, proposed: false }]),
  settingsOf([
    { offset: -7, enabled: true, proposed: true },
    { offset: -1, enabled: true, proposed: false },
    { offset: 0, enabled: true, proposed: true },
    { offset: 15, enabled: false, proposed: true },
    { offset: 30, enabled: true, proposed: false },
  ]),
  defaultReminderSettings(),
];

/**
 * The counts read from the summary equal those walked from the invoices and their reminders (the query the list ran
 * before the summary), for these settings and days around BASE, and so do the reminders proposed with an address
 * (migration 0080); and the summaries equal a rebuild.
 */
async function expectSameCounts(db: Db, organizationId: number, settings: ReminderSettings[], days: number[]): Promise<void> {
  for (const { steps } of settings)
    for (const day of days) {
      const today = addDays(BASE, day);
      const params = { organizationId, today, spans: dueSpanWindows(steps, today) };
      const direct = (await reminderCountsQuery(db, params).execute(db)).rows[0];
      expect(await countReminderList(db, params), `${today} ${JSON.stringify(steps.map((s) => [s.offset_days, s.enabled]))}`).toEqual({
        total: Number(direct?.total ?? 0),
        late: Number(direct?.late ?? 0),
        due_today: Number(direct?.due_today ?? 0),
      });
      const proposed = { ...params, limit: 100 };
      expect((await proposedRemindersQuery(db, proposed).execute(db)).rows).toEqual(
        (await proposedRemindersPlainQuery(db, proposed).execute(db)).rows,
      );
    }
  const incremental = await readSummaries(db, organizationId);
  await rebuildSummaries(db, { organizationId });
  const rebuilt = await readSummaries(db, organizationId);
  expect(rebuilt.reminderDays).toEqual(incremental.reminderDays);
  expect(rebuilt.reminderAddresses).toEqual(incremental.reminderAddresses);
}

const organizationOf = (db: Db, documentId: number) =>
  db
    .selectFrom('documents')
    .select('organization_id')
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.organization_id));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server.close();
});

const invoiceState = fc.record({
  invoice: fc.nat({ max: INVOICES - 1 }),
  maturity: fc.integer({ min: -50, max: 50 }),
  status: fc.constantFrom('unpaid', 'partial', 'paid', 'cancelled'),
  amountDue: fc.constantFrom(0, 1, 50_000),
});
/** A write of reminders: one row at a time, or many rows (several of an invoice) in one statement. */
const reminderWrite = fc.oneof(
  fc.record({
    kind: fc.constantFrom('insert' as const, 'status' as const, 'step' as const, 'delete' as const),
    invoice: fc.nat({ max: INVOICES - 1 }),
    step: fc.integer({ min: -15, max: 45 }),
    status: fc.constantFrom('sending' as const, 'sent' as const, 'failed' as const),
  }),
  fc.record({
    kind: fc.constantFrom('insertMany' as const, 'failAll' as const, 'sendAll' as const, 'deleteAll' as const),
    invoice: fc.nat({ max: INVOICES - 1 }),
    step: fc.integer({ min: -15, max: 45 }),
    status: fc.constantFrom('sending' as const, 'sent' as const, 'failed' as const),
  }),
);
const scenario = fc.record({
  invoices: fc.array(invoiceState, { maxLength: 12 }),
  /** Invoices set to one state in one statement. */
  together: fc.record({
    from: fc.nat({ max: INVOICES - 1 }),
    status: fc.constantFrom('unpaid', 'partial', 'paid'),
    maturity: fc.integer({ min: -20, max: 20 }),
  }),
  reminders: fc.array(reminderWrite, { minLength: 1, maxLength: 25 }),
  steps: fc.array(stepsState, { minLength: 1, maxLength: 3 }),
  days: fc.array(fc.integer({ min: -60, max: 60 }), { minLength: 1, maxLength: 3 }),
});

describe('the Relances list counts kept by triggers (migration 0077)', () => {
  it('equal the counts walked from the invoices and a rebuild, for any steps and history of reminders', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const first = await issued(session, { customer_id: customerId, date: '2026-10-15', maturity: BASE, items: [line('Conseil', 1, 1000)] });
    await copyDocument(server, first.id, INVOICES - 1);
    const { organizationId, ids } = await withServerDb(server, async (db) => {
      const organizationId = await organizationOf(db, first.id);
      const rows = await db.selectFrom('documents').select('id').where('organization_id', '=', organizationId).orderBy('id').execute();
      return { organizationId, ids: rows.map((r) => Number(r.id)) };
    });
    const idOf = (i: number) => ids[i % ids.length] ?? 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        await withServerDb(server, async (db) => {
          // Each run starts from a summary equal to a rebuild, so that a failed run does not fail the shrunk ones.
          await rebuildSummaries(db, { organizationId });
          for (const state of s.invoices)
            await db
              .updateTable('documents')
              .set({ maturity: addDays(BASE, state.maturity), status: state.status, amount_due: state.amountDue })
              .where('id', '=', idOf(state.invoice))
              .execute();
          await db
            .updateTable('documents')
            .set({ status: s.together.status, maturity: addDays(BASE, s.together.maturity), amount_due: 1000 })
            .where('organization_id', '=', organizationId)
            .where('id', '>=', idOf(s.together.from))
            .where('id', '<', idOf(s.together.from) + 5)
            .execute();
          for (const w of s.reminders) {
            const documentId = idOf(w.invoice);
            const at = new Date().toISOString();
            const row = (step: number, status: string) => ({
              organization_id: organizationId,
              document_id: documentId,
              step,
              status: status as 'sent',
              trigger: 'manual' as const,
              created_at: at,
              updated_at: at,
            });
            const own = () =>
              db.selectFrom('payment_reminders').select(['id', 'step']).where('document_id', '=', documentId).orderBy('step');
            switch (w.kind) {
              case 'insert':
                await db
                  .insertInto('payment_reminders')
                  .values(row(w.step, w.status))
                  .onConflict((oc) => oc.doNothing())
                  .execute();
                break;
              case 'insertMany':
                await db
                  .insertInto('payment_reminders')
                  .values([row(w.step, w.status), row(w.step + 50, 'sent'), row(w.step - 50, 'failed')])
                  .onConflict((oc) => oc.doNothing())
                  .execute();
                break;
              case 'status':
              case 'step': {
                const target = (await own().execute())[Math.abs(w.step) % 3];
                if (!target) break;
                if (w.kind === 'status')
                  await db.updateTable('payment_reminders').set({ status: w.status }).where('id', '=', target.id).execute();
                else
                  await sql`update payment_reminders set step = ${w.step + 100} where id = ${target.id}
                    and not exists (select 1 from payment_reminders o where o.document_id = ${documentId} and o.step = ${w.step + 100})`.execute(
                    db,
                  );
                break;
              }
              case 'delete': {
                const target = (await own().execute())[Math.abs(w.step) % 3];
                if (target) await db.deleteFrom('payment_reminders').where('id', '=', target.id).execute();
                break;
              }
              case 'failAll':
              case 'sendAll':
                await db
                  .updateTable('payment_reminders')
                  .set({ status: w.kind === 'failAll' ? 'failed' : 'sent' })
                  .where('organization_id', '=', organizationId)
                  .where('document_id', '>=', documentId)
                  .where('document_id', '<', documentId + 4)
                  .execute();
                break;
              case 'deleteAll':
                await db.deleteFrom('payment_reminders').where('document_id', '=', documentId).execute();
                break;
            }
          }
          await expectSameCounts(db, organizationId, [...s.steps.map(settingsOf), ...NAMED_SETTINGS], [0, ...s.days]);
        });
      }),
      { numRuns: Number(process.env.SUMMARY_RUNS ?? 30) },
    );
  }, 600_000);

  it('follow the writes of the app and of a repair by hand: payments, credit notes, reminders failed then sent, re-dating, deletions', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = (maturity: string, amount: number) =>
      issued(session, { customer_id: customerId, date: '2026-10-15', maturity, items: [line('Conseil', 1, amount)] });
    const late = await invoice(addDays(BASE, -20), 500);
    const dueSoon = await invoice(addDays(BASE, 3), 300);
    const credited = await invoice(addDays(BASE, -2), 200);
    const paid = await invoice(addDays(BASE, -40), 100);
    const days = [-45, -21, -3, 0, 1, 3, 20, 40];
    const check = (db: Db, organizationId: number) => expectSameCounts(db, organizationId, NAMED_SETTINGS, days);
    const organizationId = await withServerDb(server, (db) => organizationOf(db, late.id));
    const now = () => new Date().toISOString();
    await withServerDb(server, async (db) => {
      await check(db, organizationId);
      expect((await readSummaries(db, organizationId)).reminderDays.reduce((n, r) => n + Number(r.count), 0)).toBe(4);
      // A reminder claimed, failed, claimed again and sent, as the service writes them; then a later step failed.
      const claimed = await claimReminder(db, { organizationId, documentId: late.id, step: 0, trigger: 'manual', now: now() });
      if (!claimed) throw new Error('not claimed');
      await check(db, organizationId);
      const finish = (id: number, status: 'sent' | 'failed') =>
        finishReminder(db, { id, status, recipients: 'a@b.fr', subject: 'Relance', error: '', sentAt: null, now: now() });
      await finish(claimed.id, 'failed');
      await check(db, organizationId);
      expect(await claimReminder(db, { organizationId, documentId: late.id, step: 0, trigger: 'manual', now: now() })).toBeDefined();
      await finish(claimed.id, 'sent');
      await check(db, organizationId);
      const second = await claimReminder(db, { organizationId, documentId: late.id, step: 15, trigger: 'automatic', now: now() });
      if (!second) throw new Error('not claimed');
      await finish(second.id, 'failed');
      await check(db, organizationId);
      expect((await readSummaries(db, organizationId)).reminderDays.find((r) => r.maturity === addDays(BASE, -20))?.last_step).toBe(0);
      // A step before the due date sent on the invoice due soon.
      const before = await claimReminder(db, { organizationId, documentId: dueSoon.id, step: -3, trigger: 'manual', now: now() });
      if (before) await finish(before.id, 'sent');
      await check(db, organizationId);
    });
    // Payments: part of one (still on the list), all of another (off it).
    expect((await session.rest('POST', `/api/documents/${late.id}/payments`, { date: '2026-11-20', amount: 100 })).status).toBe(201);
    expect((await session.rest('POST', `/api/documents/${paid.id}/payments`, { date: '2026-11-20', amount: 120 })).status).toBe(201);
    await withServerDb(server, (db) => check(db, organizationId));
    // A credit note of the whole invoice: nothing left to pay.
    const credit = await session.rest('POST', `/api/documents/${credited.id}/convert`, { type: 'credit' });
    expect(credit.status).toBe(201);
    expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);
    await withServerDb(server, (db) => check(db, organizationId));
    // The customer gains an address, then loses it; an invoice issued to a customer with one keeps it from its snapshot.
    const addressed = () => withServerDb(server, async (db) => (await readSummaries(db, organizationId)).reminderAddresses.length);
    const open = await withServerDb(server, async (db) =>
      (await readSummaries(db, organizationId)).reminderDays.reduce((n, r) => n + Number(r.count), 0),
    );
    expect(await addressed()).toBe(0);
    const withEmail = { ...businessCustomer, email: 'compta@boulangerie-martin.fr' };
    expect((await session.rest('PUT', `/api/customers/${customerId}`, withEmail)).status).toBe(200);
    await withServerDb(server, (db) => check(db, organizationId));
    expect(await addressed()).toBe(open);
    const snapshotted = await invoice(addDays(BASE, -10), 50);
    expect((await session.rest('PUT', `/api/customers/${customerId}`, { ...businessCustomer, email: '' })).status).toBe(200);
    await withServerDb(server, (db) => check(db, organizationId));
    expect(
      (await withServerDb(server, async (db) => (await readSummaries(db, organizationId)).reminderAddresses)).map((r) => r.document_id),
    ).toEqual([snapshotted.id]);
    // A draft deleted (the only deletion the app makes): it was never counted.
    const drafted = await draft(session, {
      customer_id: customerId,
      date: '2026-10-15',
      maturity: BASE,
      items: [line('Brouillon', 1, 10)],
    });
    expect((await session.rest('DELETE', `/api/documents/${drafted.id}`)).status).toBe(200);
    await withServerDb(server, async (db) => {
      await check(db, organizationId);
      // By hand: an invoice re-dated, renumbered away and back, then its reminders and itself deleted.
      await db
        .updateTable('documents')
        .set({ maturity: addDays(BASE, 5) })
        .where('id', '=', late.id)
        .execute();
      await check(db, organizationId);
      await db.updateTable('documents').set({ number: null }).where('id', '=', late.id).execute();
      await check(db, organizationId);
      await db.updateTable('documents').set({ number: 'F-REPAIRED' }).where('id', '=', late.id).execute();
      await check(db, organizationId);
      await db.deleteFrom('payment_reminders').where('document_id', '=', late.id).execute();
      await check(db, organizationId);
      await db.deleteFrom('payments').where('document_id', '=', late.id).execute();
      await db.deleteFrom('documents').where('id', '=', late.id).execute();
      await check(db, organizationId);
      expect((await readSummaries(db, organizationId)).reminderDays.reduce((n, r) => n + Number(r.count), 0)).toBe(2);
    });
  }, 120_000);
});
