import fc from 'fast-check';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import {
  listRemindableInvoices,
  listRemindersOf,
  proposedRemindersPlainQuery,
  proposedRemindersQuery,
  reminderCountsQuery,
  reminderPageQuery,
  reminderSummaryCountsQuery,
} from '../../src/server/db/queries/payment-reminders';
import { readSummaries, rebuildSummaries } from '../../src/server/db/queries/summaries';
import {
  dueSpanWindows,
  getReminderSettings,
  listReminders,
  PROPOSED_AT_MOST,
  saveReminderSettings,
} from '../../src/server/services/payment-reminders';
import { todayIso } from '../../src/server/services/document-record';
import { daysBetween, dueStep, nextStep } from '../../src/shared/reminders';
import { addDays } from '../../src/shared/payment-terms';
import { fromStoredUnits } from '../../src/shared/money';
import { pageWindow } from '../../src/shared/schemas/filters';
import { customerPartySchema } from '../../src/shared/schemas/document-parties';
import {
  defaultReminderSettings,
  offsetLabel,
  reminderSettingsSchema,
  type ReminderList,
  type ReminderListQuery,
} from '../../src/shared/schemas/reminders';
import { copyDocument, onPostgres, withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { customerWithEmail, issued, line, readyToInvoice } from '../helpers/documents';

/**
 * The list as it was computed before the database counted it: every open invoice read and built, then counted,
 * filtered and sliced here. The reference the SQL path must match.
 */
async function listRemindersInMemory(db: Db, organizationId: number, now: Date, query: ReminderListQuery): Promise<ReminderList> {
  const today = todayIso(now);
  const settings = await getReminderSettings(db, organizationId);
  const fromDaysLate = Math.min(0, ...settings.steps.filter((s) => s.enabled).map((s) => s.offset_days));
  const invoices = await listRemindableInvoices(db, { organizationId, maturityOnOrBefore: addDays(today, -fromDaysLate) });
  const reminders = await listRemindersOf(db, { organizationId, documentIds: invoices.map((i) => i.id) });
  const emailOf = (invoice: (typeof invoices)[number]) => {
    if (invoice.customer_email) return invoice.customer_email;
    if (!invoice.customer_snapshot) return '';
    const party = customerPartySchema.safeParse(JSON.parse(invoice.customer_snapshot));
    return party.success ? (party.data.email ?? '') : '';
  };
  const rows = [];
  for (const invoice of invoices) {
    const daysLate = daysBetween(invoice.maturity ?? today, today);
    const own = reminders.get(invoice.id) ?? [];
    const done = own.filter((r) => r.status !== 'failed').map((r) => r.step);
    const step = dueStep(settings.steps, daysLate, done);
    if (daysLate < 0 && !step) continue;
    const next = nextStep(settings.steps, daysLate, done);
    const last = [...own].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
    rows.push({
      document_id: invoice.id,
      number: invoice.number ?? '',
      customer_name: invoice.customer_name,
      customer_email: emailOf(invoice),
      maturity: invoice.maturity ?? '',
      days_late: daysLate,
      amount_due: fromStoredUnits(invoice.amount_due),
      currency: invoice.currency,
      last_reminder: last
        ? {
            id: last.id,
            document_id: last.document_id,
            step: last.step,
            status: last.status,
            trigger: last.trigger,
            recipients: last.recipients,
            subject: last.subject,
            error: last.error,
            attempts: last.attempts,
            sent_at: last.sent_at,
            updated_at: last.updated_at,
          }
        : null,
      due_step: step ? { offset_days: step.offset_days, mode: step.mode, label: offsetLabel(step.offset_days) } : null,
      next_step:
        next && invoice.maturity
          ? { offset_days: next.offset_days, label: offsetLabel(next.offset_days), date: addDays(invoice.maturity, next.offset_days) }
          : null,
    });
  }
  rows.sort((a, b) => b.days_late - a.days_late || a.document_id - b.document_id);
  const { offset, limit } = pageWindow(query);
  return {
    total: rows.length,
    late: rows.filter((row) => row.days_late > 0).length,
    due_today: rows.filter((row) => row.due_step).length,
    proposed: rows.filter((row) => row.due_step?.mode === 'proposed' && row.customer_email).map((row) => row.document_id),
    data: rows.slice(offset, offset + limit),
  } as ReminderList;
}

const INVOICES = 130; // more than PROPOSED_AT_MOST, so that the cap is met
const BASE = '2026-12-01';

let server: TestServer;
let organizationId: number;
let ids: number[];
let withMail: number;
let noMail: number;
let snapshot: string | null;

beforeAll(async () => {
  server = await startTestServer();
  const { session } = await registered(server.url);
  await readyToInvoice(session);
  withMail = await customerWithEmail(session, 'Alpha', 'compta@alpha.fr');
  noMail = await customerWithEmail(session, 'Sans Adresse', '');
  const first = await issued(session, { customer_id: withMail, maturity: BASE, items: [line('Conseil', 1, 1000)] });
  await copyDocument(server, first.id, INVOICES - 1);
  await withServerDb(server, async (db) => {
    const doc = await db
      .selectFrom('documents')
      .select(['organization_id', 'customer_snapshot'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    organizationId = doc.organization_id;
    snapshot = doc.customer_snapshot;
    ids = (await db.selectFrom('documents').select('id').where('organization_id', '=', organizationId).orderBy('id').execute()).map(
      (d) => d.id,
    );
  });
}, 120_000);
afterAll(async () => {
  await server.close();
});

const invoiceState = fc.record({
  maturity: fc.integer({ min: -50, max: 50 }),
  status: fc.constantFrom('unpaid', 'partial', 'unpaid', 'paid', 'cancelled'),
  amountDue: fc.constantFrom(0, 1, 50_000, 100_000, 100_000),
  customer: fc.constantFrom('mail' as const, 'mail' as const, 'none' as const, 'unlinked' as const),
  snapshot: fc.boolean(),
  numbered: fc.constantFrom(true, true, true, false),
});
/** Each customer's address between the writes of invoices: kept, or gained or lost (as given, or emptied). */
const addressState = fc.record({ withMail: fc.boolean(), noMail: fc.boolean() });
const reminderState = fc.record({
  invoice: fc.nat({ max: INVOICES - 1 }),
  step: fc.integer({ min: -15, max: 45 }),
  status: fc.constantFrom('sending', 'sent', 'failed'),
  minute: fc.nat({ max: 5000 }),
});
const stepState = fc.record({
  offset: fc.integer({ min: -15, max: 45 }),
  enabled: fc.boolean(),
  proposed: fc.boolean(),
});
const scenario = fc.record({
  invoices: fc.array(invoiceState, { minLength: INVOICES, maxLength: INVOICES }),
  reminders: fc.array(reminderState, { maxLength: 60 }),
  steps: fc.uniqueArray(stepState, { selector: (s) => s.offset, maxLength: 6 }),
  today: fc.integer({ min: -20, max: 20 }),
  page: fc.integer({ min: 1, max: 8 }),
  perPage: fc.constantFrom(1, 7, 25, 100),
  addressesBefore: addressState,
  addressesAfter: addressState,
  /** Invoices whose state is written after the customers' addresses changed. */
  lastWrites: fc.nat({ max: 20 }),
});

describe('the Relances list counted by the database', () => {
  it('gives the same total, late, due_today, proposed and page as every invoice built in memory', async () => {
    const template = defaultReminderSettings().steps[0];
    if (!template) throw new Error('no default step');
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        await withServerDb(server, async (db) => {
          const setAddresses = async (state: { withMail: boolean; noMail: boolean }) => {
            for (const [id, has, email] of [
              [withMail, state.withMail, 'compta@alpha.fr'],
              [noMail, state.noMail, 'paie@sans-adresse.fr'],
            ] as const)
              await db
                .updateTable('customers')
                .set({ email: has ? email : '' })
                .where('id', '=', id)
                .execute();
          };
          const columns = (i: number, state: (typeof s.invoices)[number]) => ({
            maturity: addDays(BASE, state.maturity),
            status: state.status,
            amount_due: state.amountDue,
            number: state.numbered ? `F-${i}` : null,
            customer_id: state.customer === 'mail' ? withMail : state.customer === 'none' ? noMail : null,
            customer_snapshot: state.snapshot ? snapshot : null,
          });
          const write = (i: number, state: (typeof s.invoices)[number]) =>
            db
              .updateTable('documents')
              .set(columns(i, state))
              .where('id', '=', ids[i] ?? 0)
              .execute();
          // Most invoices in one statement (PostgreSQL's summary triggers read a statement's rows at once: one per
          // invoice cost a millisecond each, 13,000 times), the last ones row by row after the addresses change.
          const writeAll = async (states: typeof s.invoices) => {
            if (states.length === 0) return;
            const rows = states.map((state, i) => {
              const c = columns(i, state);
              return sql`(cast(${ids[i] ?? 0} as bigint), cast(${c.maturity} as text), cast(${c.status} as text),
                cast(${c.amount_due} as bigint), cast(${c.number} as text), cast(${c.customer_id} as bigint),
                cast(${c.customer_snapshot} as text))`;
            });
            await sql`update documents set maturity = v.column2, status = v.column3, amount_due = v.column4, number = v.column5,
              customer_id = v.column6, customer_snapshot = v.column7
              from (values ${sql.join(rows)}) as v where documents.id = v.column1`.execute(db);
          };
          await setAddresses(s.addressesBefore);
          const last = s.invoices.length - s.lastWrites;
          await writeAll(s.invoices.slice(0, last));
          await setAddresses(s.addressesAfter);
          for (const [i, state] of s.invoices.entries()) if (i >= last) await write(i, state);
          await db.deleteFrom('payment_reminders').where('organization_id', '=', organizationId).execute();
          const seen = new Set<string>();
          for (const r of s.reminders) {
            const key = `${r.invoice}:${r.step}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const at = new Date(Date.parse(`${BASE}T00:00:00Z`) + r.minute * 60_000).toISOString();
            await db
              .insertInto('payment_reminders')
              .values({
                organization_id: organizationId,
                document_id: ids[r.invoice] ?? 0,
                step: r.step,
                status: r.status,
                trigger: 'manual',
                created_at: at,
                updated_at: at,
              })
              .execute();
          }
          const settings = reminderSettingsSchema.parse({
            steps: s.steps.map((step) => ({
              ...template,
              offset_days: step.offset,
              enabled: step.enabled,
              mode: step.proposed ? 'proposed' : 'automatic',
            })),
          });
          await saveReminderSettings(db, organizationId, settings);
          const now = new Date(`${addDays(BASE, s.today)}T08:00:00Z`);
          const query = { page: s.page, per_page: s.perPage };
          const expected = await listRemindersInMemory(db, organizationId, now, query);
          const actual = await listReminders(db, organizationId, now, query);
          expect({ ...actual, proposed: actual.proposed }).toEqual({
            ...expected,
            proposed: expected.proposed.slice(0, PROPOSED_AT_MOST),
          });
          // The proposed reminders read from the invoices with an address equal those walked from every invoice, for
          // any limit; and the rows the triggers kept equal a rebuild's.
          const spans = dueSpanWindows(settings.steps, todayIso(now));
          for (const limit of [1, 7, PROPOSED_AT_MOST]) {
            const params = { organizationId, today: todayIso(now), spans, limit };
            const plain = (await proposedRemindersPlainQuery(db, params).execute(db)).rows;
            expect((await proposedRemindersQuery(db, params).execute(db)).rows).toEqual(plain);
          }
          const incremental = (await readSummaries(db, organizationId)).reminderAddresses;
          await rebuildSummaries(db, { organizationId });
          expect((await readSummaries(db, organizationId)).reminderAddresses).toEqual(incremental);
        });
      }),
      { numRuns: 40 },
    );
  }, 300_000);

  it.skipIf(onPostgres)('pages and counts through the partial index, in its order: no sort of the matches', async () => {
    await withServerDb(server, async (db) => {
      const spans = [
        { offset: -3, maturityFrom: '2026-12-02', maturityTo: '2026-12-04', proposed: true },
        { offset: 0, maturityFrom: '2026-11-17', maturityTo: '2026-12-01', proposed: true },
        { offset: 15, maturityFrom: null, maturityTo: '2026-11-16', proposed: false },
      ];
      const params = { organizationId, today: BASE, spans };
      const plan = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
        (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows
          .map((row) => row.detail)
          .join('\n');
      const page = await plan(reminderPageQuery(db, { ...params, offset: 0, limit: 25 }).compile());
      expect(page).toContain('documents_remindable_idx');
      expect(page).not.toContain('TEMP B-TREE');
      expect(await plan(reminderCountsQuery(db, params).compile(db))).toContain('documents_remindable_idx');
      // The counts the list reads: the organisation's rows up to the last due date, along the summary's key.
      expect(await plan(reminderSummaryCountsQuery(params).compile(db))).toContain(
        'SEARCH summary_reminder_days USING INDEX sqlite_autoindex_summary_reminder_days_1 (organization_id=? AND maturity<?)',
      );
      // The proposed reminders: the invoices with an address in list order, each invoice's row read by its id.
      const proposed = await plan(proposedRemindersQuery(db, { ...params, limit: 100 }).compile(db));
      expect(proposed).toContain(
        'SEARCH addressed USING COVERING INDEX sqlite_autoindex_summary_reminder_addresses_1 (organization_id=? AND maturity<?)',
      );
      expect(proposed).toContain('SEARCH documents USING INTEGER PRIMARY KEY (rowid=?)');
      expect(proposed).not.toContain('TEMP B-TREE');
      const plain = await plan(proposedRemindersPlainQuery(db, { ...params, limit: 100 }).compile(db));
      expect(plain).toContain('documents_remindable_idx');
      expect(plain).not.toContain('TEMP B-TREE');
    });
  });
});

describe('the proposed reminders on PostgreSQL, its statistics older than the invoices', () => {
  it.runIf(onPostgres)(
    'reads each invoice by its id, not along an index of its organisation and due date',
    async () => {
      const { session } = await registered(server.url);
      await readyToInvoice(session);
      const customer = await customerWithEmail(session, 'Import', 'compta@import.fr');
      const first = await issued(session, { customer_id: customer, maturity: BASE, items: [line('Conseil', 1, 1000)] });
      await withServerDb(server, async (db) => {
        // Statistics taken before a day's import of invoices all due the same day, and kept so while the plan is read.
        await sql`analyze documents`.execute(db);
        await sql`alter table documents set (autovacuum_enabled = false)`.execute(db);
        try {
          await copyDocument(server, first.id, 20_000);
          const { organization_id } = await db
            .selectFrom('documents')
            .select('organization_id')
            .where('id', '=', first.id)
            .executeTakeFirstOrThrow();
          const spans = dueSpanWindows(defaultReminderSettings().steps, addDays(BASE, 20));
          const compiled = proposedRemindersQuery(db, {
            organizationId: organization_id,
            today: addDays(BASE, 20),
            spans,
            limit: 100,
          }).compile(db);
          const plan = (
            await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))
          ).rows
            .map((row) => row['QUERY PLAN'])
            .join('\n');
          // By its key, one row at a time or through a bitmap of one (as the table's dead rows make one or the other cheaper).
          expect(plan).toMatch(/(Index Scan using documents_pkey on documents|Bitmap Index Scan on documents_pkey)\b/);
          expect(plan).not.toMatch(/on documents\b.*\n\s*Index Cond: .*organization_id/);
        } finally {
          await sql`alter table documents reset (autovacuum_enabled)`.execute(db);
        }
      });
    },
    120_000,
  );
});
