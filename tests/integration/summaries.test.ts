import fc from 'fast-check';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSummaries, rebuildSummaries } from '../../src/server/db/queries/summaries';
import { countedInTurnover } from '../../src/server/db/queries/reports';
import { copyDocumentIn, onPostgres, withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, draft, issued, line, readyToInvoice } from '../helpers/documents';

/** One write of the random sequence; `pick` chooses among the documents it applies to. */
type Step =
  | {
      kind: 'draft' | 'issue' | 'estimate';
      day: number;
      month: number;
      amount: number;
      other: boolean;
      services: boolean;
      mixed: boolean;
      dollars: boolean;
      names: string[];
    }
  | {
      kind:
        | 'edit'
        | 'delete'
        | 'pay'
        | 'payAll'
        | 'reverse'
        | 'credit'
        | 'cancel'
        | 'deposit'
        | 'final'
        | 'sent'
        | 'status'
        | 'rename'
        | 'address'
        | 'movePayment'
        | 'dropPayment'
        | 'reshare'
        | 'remind'
        | 'remindAgain'
        | 'unremind'
        | 'redate';
      pick: number;
      amount: number;
    };

/** Line designations the by-item sums group: spaces around or inside, and one twice on a document. */
const DESIGNATIONS = ['Article', ' Article ', 'Conseil  juridique', 'Conseil juridique'];
const designations = fc.array(fc.constantFrom(...DESIGNATIONS), { minLength: 1, maxLength: 3 });

const creation = fc.record({
  kind: fc.constantFrom('draft' as const, 'issue' as const, 'estimate' as const),
  day: fc.integer({ min: 1, max: 4 }),
  month: fc.integer({ min: 9, max: 11 }),
  amount: fc.integer({ min: 1, max: 900 }),
  other: fc.boolean(),
  services: fc.boolean(),
  mixed: fc.boolean(),
  dollars: fc.boolean(),
  names: designations,
});
const change = fc.record({
  kind: fc.constantFrom(
    'edit' as const,
    'delete' as const,
    'pay' as const,
    'payAll' as const,
    'reverse' as const,
    'credit' as const,
    'cancel' as const,
    'deposit' as const,
    'final' as const,
    'sent' as const,
    'status' as const,
    'rename' as const,
    'address' as const,
    'movePayment' as const,
    'dropPayment' as const,
    'reshare' as const,
  ),
  pick: fc.nat(),
  amount: fc.integer({ min: 1, max: 400 }),
});
/** Payments received, moved, deleted and their documents' shares changed: often enough that each run has some. */
const receipt = fc.record({
  kind: fc.constantFrom('pay' as const, 'payAll' as const, 'movePayment' as const, 'dropPayment' as const, 'reshare' as const),
  pick: fc.nat(),
  amount: fc.integer({ min: 1, max: 400 }),
});
/** Reminders sent, failed, sent again and deleted, and invoices re-dated: the Relances list's counts follow them. */
const reminder = fc.record({
  kind: fc.constantFrom('remind' as const, 'remind' as const, 'remindAgain' as const, 'unremind' as const, 'redate' as const),
  pick: fc.nat(),
  amount: fc.integer({ min: 1, max: 400 }),
});
const steps = fc.array(fc.oneof(creation, change, change, receipt, reminder, reminder), { minLength: 4, maxLength: 14 });

interface Doc {
  id: number;
  type: string;
  kind: string;
  number: string | null;
  status: string;
  amount_due: number;
  items: { id: number }[];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Applies one step; a write the rules refuse (a credit larger than what is left…) writes nothing, as it should. */
async function apply(session: Session, customers: number[], step: Step, payments: Map<number, number[]>): Promise<void> {
  const docs = async (): Promise<Doc[]> => (await session.rest('GET', '/api/documents?per_page=100')).body.data;
  const one = async (id: number): Promise<Doc> => (await session.rest('GET', `/api/documents/${id}`)).body;
  const pick = <T>(list: T[], n: number): T | undefined => list[n % Math.max(1, list.length)];
  if (step.kind === 'draft' || step.kind === 'issue' || step.kind === 'estimate') {
    const body = {
      type: step.kind === 'estimate' ? 'estimate' : 'invoice',
      customer_id: customers[step.other ? 1 : 0],
      date: `2026-${String(step.month).padStart(2, '0')}-0${step.day}`,
      ...(step.dollars ? { currency: 'USD', exchange_rate: '1,1' } : {}),
      items: step.names.map((name, i) =>
        // Mixed: goods and services lines on one document, whose payments the URSSAF report splits one by one.
        step.mixed
          ? line(name, 1, step.amount + i, i % 2 ? 20 : 5.5, { kind: i % 2 ? 'service' : 'goods' })
          : line(name, 1, step.amount + i, step.services ? 20 : 5.5, { kind: step.services ? 'service' : 'goods' }),
      ),
    };
    const created = await draft(session, body);
    if (step.kind !== 'draft') await session.rest('POST', `/api/documents/${created.id}/issue`);
    return;
  }
  const all = await docs();
  const drafts = all.filter((d) => d.number === null);
  const invoices = all.filter((d) => d.type === 'invoice' && d.number !== null);
  const estimates = all.filter((d) => d.type === 'estimate' && d.number !== null);
  switch (step.kind) {
    case 'edit': {
      const d = pick(drafts, step.pick);
      if (d)
        await session.rest('PUT', `/api/documents/${d.id}`, {
          date: '2026-10-03',
          customer_id: customers[step.pick % 2],
          items: [line('Modifié', 2, step.amount), line(' Article ', 1, step.amount)],
        });
      return;
    }
    case 'rename': {
      const id = pick(customers, step.pick);
      if (id) await session.rest('PUT', `/api/customers/${id}`, { ...businessCustomer, name: `Client ${step.amount}`, maturity: 0 });
      return;
    }
    // A customer's address gained or lost: the invoices a reminder can be offered for follow it.
    case 'address': {
      const id = pick(customers, step.pick);
      const email = step.amount % 2 ? `compta${step.amount}@exemple.fr` : '';
      if (id) await session.rest('PUT', `/api/customers/${id}`, { ...businessCustomer, name: `Client ${step.pick}`, email, maturity: 0 });
      return;
    }
    case 'delete': {
      const d = pick(drafts, step.pick);
      if (d) await session.rest('DELETE', `/api/documents/${d.id}`);
      return;
    }
    case 'pay':
    case 'payAll': {
      const d = pick(
        invoices.filter((i) => i.amount_due > 0),
        step.pick,
      );
      if (!d) return;
      const amount = step.kind === 'payAll' ? d.amount_due : Math.min(d.amount_due, step.amount / 10);
      // Paid in the months around the documents', so that the receipts' months differ.
      const date = `2026-${String(9 + (step.amount % 3)).padStart(2, '0')}-${String(1 + (step.pick % 28)).padStart(2, '0')}`;
      const paid = await session.rest('POST', `/api/documents/${d.id}/payments`, { date, amount });
      if (paid.status === 201) payments.set(d.id, [...(payments.get(d.id) ?? []), paid.body.data.id]);
      return;
    }
    case 'reverse': {
      const ids = [...payments.entries()];
      const entry = pick(ids, step.pick);
      if (!entry) return;
      const [documentId, list] = entry;
      const paymentId = list.pop();
      if (paymentId) await session.rest('DELETE', `/api/documents/${documentId}/payments/${paymentId}`);
      return;
    }
    case 'credit':
    case 'cancel': {
      const d = pick(invoices, step.pick);
      if (!d) return;
      const full = await one(d.id);
      const quantity = step.kind === 'cancel' ? 1 : 0.5;
      const credit = await session.rest('POST', `/api/documents/${d.id}/convert`, {
        type: 'credit',
        lines: full.items.map((i) => ({ id: i.id, quantity })),
      });
      if (credit.status === 201 || credit.status === 200) await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`);
      return;
    }
    case 'deposit': {
      const e = pick(estimates, step.pick);
      if (!e) return;
      const deposit = await session.rest('POST', `/api/documents/${e.id}/deposit`, { percent: 30 });
      if (deposit.status === 201 || deposit.status === 200) await session.rest('POST', `/api/documents/${deposit.body.data.id}/issue`);
      return;
    }
    case 'final': {
      const e = pick(estimates, step.pick);
      if (!e) return;
      const invoice = await session.rest('POST', `/api/documents/${e.id}/convert`, { type: 'invoice' });
      if (invoice.status === 201 || invoice.status === 200) await session.rest('POST', `/api/documents/${invoice.body.data.id}/issue`);
      return;
    }
    case 'sent': {
      const d = pick(all, step.pick);
      if (d) await session.rest('POST', `/api/documents/${d.id}/sent`);
      return;
    }
    // No route edits or deletes a payment (a counter-entry cancels one) nor changes an issued document's lines: in SQL,
    // as a repair by hand or a future route would, the receipts' summary following every column it reads.
    case 'movePayment':
    case 'dropPayment':
    case 'reshare': {
      await withServerDb(server, async (db) => {
        const organization = db
          .selectFrom('customers')
          .select('organization_id')
          .where('id', '=', customers[0] ?? 0);
        // A payment another cancels stays (the counter-entry refers to it).
        const cancelled = db.selectFrom('payments').select('reverses_id').where('reverses_id', 'is not', null);
        let candidates = db.selectFrom('payments').select('id').where('organization_id', '=', organization);
        if (step.kind === 'dropPayment') candidates = candidates.where('id', 'not in', cancelled as never);
        const ids = (await candidates.orderBy('id').execute()).map((r) => Number(r.id));
        const id = pick(ids, step.pick);
        if (id === undefined) return;
        if (step.kind === 'dropPayment') await db.deleteFrom('payments').where('id', '=', id).execute();
        else if (step.kind === 'movePayment') {
          const target = pick(
            invoices.map((i) => i.id),
            step.amount,
          );
          await db
            .updateTable('payments')
            .set({ date: `2026-${String(9 + (step.amount % 3)).padStart(2, '0')}-15`, amount: step.amount * 100, document_id: target })
            .where('id', '=', id)
            .execute();
        } else {
          const { document_id } = await db.selectFrom('payments').select('document_id').where('id', '=', id).executeTakeFirstOrThrow();
          // Goods only, services only, or mixed, in turn; and the currency's rate changed.
          const goods = [0, 2, 1][step.amount % 3] ?? 0;
          await sql`update documents set goods_net = lines_net * ${goods} / 2, exchange_rate = ${step.amount % 2 ? '1.2' : null}
            where id = ${document_id}`.execute(db);
        }
      });
      return;
    }
    // No route writes a reminder row without a mail server: in SQL, as the sender's claim and finish do.
    case 'remind':
    case 'remindAgain':
    case 'unremind':
    case 'redate': {
      await withServerDb(server, async (db) => {
        const d = pick(invoices, step.pick);
        const organization = db
          .selectFrom('customers')
          .select('organization_id')
          .where('id', '=', customers[0] ?? 0);
        const ids = (
          await db.selectFrom('payment_reminders').select('id').where('organization_id', '=', organization).orderBy('id').execute()
        ).map((r) => Number(r.id));
        const reminderId = pick(ids, step.pick);
        const at = new Date().toISOString();
        if (step.kind === 'remind' && d) {
          const { organization_id } = await db
            .selectFrom('documents')
            .select('organization_id')
            .where('id', '=', d.id)
            .executeTakeFirstOrThrow();
          await db
            .insertInto('payment_reminders')
            .values({
              organization_id,
              document_id: d.id,
              step: (step.amount % 60) - 15,
              status: (['sent', 'failed', 'sending'] as const)[step.amount % 3] ?? 'sent',
              trigger: 'manual',
              created_at: at,
              updated_at: at,
            })
            .onConflict((oc) => oc.doNothing())
            .execute();
        } else if (step.kind === 'remindAgain' && reminderId !== undefined)
          await sql`update payment_reminders set status = case when status = 'failed' then 'sent' else 'failed' end where id = ${reminderId}`.execute(
            db,
          );
        else if (step.kind === 'unremind' && reminderId !== undefined)
          await db.deleteFrom('payment_reminders').where('id', '=', reminderId).execute();
        else if (step.kind === 'redate' && d)
          await db
            .updateTable('documents')
            .set({ maturity: `2026-${String(10 + (step.amount % 3)).padStart(2, '0')}-${String(1 + (step.pick % 28)).padStart(2, '0')}` })
            .where('id', '=', d.id)
            .execute();
      });
      return;
    }
    case 'status': {
      const e = pick(estimates, step.pick);
      if (e) await session.rest('POST', `/api/documents/${e.id}/status`, { status: step.pick % 2 ? 'accepted' : 'refused' });
      return;
    }
  }
}

describe('document summaries kept by triggers (migration 0066)', () => {
  it('equal a rebuild from the documents, row for row, after any sequence of writes', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        const { session } = await registered(server.url);
        const { customerId } = await readyToInvoice(session);
        const other = await session.rest('POST', '/api/customers', { ...businessCustomer, name: 'Épicerie Zola', maturity: 0 });
        const customers = [customerId, other.body.data.id];
        expect((await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' })).status).toBe(201);
        const payments = new Map<number, number[]>();
        for (const step of sequence) await apply(session, customers, step as Step, payments);
        const organizationId = await withServerDb(server, async (db) =>
          Number(
            (await db.selectFrom('customers').select('organization_id').where('id', '=', customerId).executeTakeFirstOrThrow())
              .organization_id,
          ),
        );
        await withServerDb(server, async (db) => {
          const incremental = await readSummaries(db, organizationId);
          await rebuildSummaries(db, { organizationId });
          expect(await readSummaries(db, organizationId)).toEqual(incremental);
          // Not vacuous: the organisation's documents are all counted.
          const { rows } = await sql<{ n: number }>`select count(*) as n from documents where organization_id = ${organizationId}`.execute(
            db,
          );
          expect(incremental.counts.reduce((n, c) => n + Number(c.count), 0)).toBe(Number(rows[0]?.n));
          // And every document turnover counts is in the months per customer.
          const counted = await countedInTurnover(db, organizationId).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
          expect(incremental.customerMonths.reduce((n, c) => n + Number(c.count), 0)).toBe(Number(counted.n));
          // And every payment is in the receipts' months.
          const paid = await db
            .selectFrom('payments')
            .select(sql<number>`count(*)`.as('n'))
            .where('organization_id', '=', organizationId)
            .executeTakeFirstOrThrow();
          expect(incremental.paymentMonths.reduce((n, c) => n + Number(c.count), 0)).toBe(Number(paid.n));
          // And every invoice a reminder may concern is in the reminders' days.
          const remindable = await db
            .selectFrom('documents')
            .select(sql<number>`count(*)`.as('n'))
            .where('organization_id', '=', organizationId)
            .where('type', '=', 'invoice')
            .where('status', 'in', ['unpaid', 'partial'])
            .where('amount_due', '>', 0)
            .where('maturity', 'is not', null)
            .where('number', 'is not', null)
            .executeTakeFirstOrThrow();
          expect(incremental.reminderDays.reduce((n, c) => n + Number(c.count), 0)).toBe(Number(remindable.n));
        });
      }),
      { numRuns: Number(process.env.SUMMARY_RUNS ?? 12) },
    );
  }, 600_000);

  it('equal a rebuild after statements that write many documents at once', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, date: '2026-10-01', items: [line('Conseil', 2, 300)] });
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-10-05', amount: 100 })).status).toBe(201);
    // A deposit and its credit note (turnover leaves that credit note out), and a draft.
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 1000)] });
    const deposit = (await session.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 })).body.data;
    expect((await session.rest('POST', `/api/documents/${deposit.id}/issue`)).status).toBe(200);
    const credit = (await session.rest('POST', `/api/documents/${deposit.id}/convert`, { type: 'credit' })).body.data;
    expect((await session.rest('POST', `/api/documents/${credit.id}/issue`)).status).toBe(200);
    await draft(session, { customer_id: customerId, items: [line('Brouillon', 1, 10)] });
    await withServerDb(server, async (db) => {
      const { organization_id: organizationId } = await db
        .selectFrom('documents')
        .select('organization_id')
        .where('id', '=', invoice.id)
        .executeTakeFirstOrThrow();
      const same = async () => {
        const incremental = await readSummaries(db, organizationId);
        await rebuildSummaries(db, { organizationId });
        expect(await readSummaries(db, organizationId)).toEqual(incremental);
        return incremental;
      };
      const before = await same();
      expect(before.days.some((d) => Number(d.deposit_credit) === 1)).toBe(true);
      // 300 copies of the invoice in one statement; then all of them renamed, sent, paid, deleted, a statement each.
      expect(before.customerMonths.length).toBeGreaterThan(0);
      expect(before.itemMonths.map((r) => r.name)).toContain('Conseil');
      await copyDocumentIn(db, invoice.id, 300);
      expect((await same()).counts.find((c) => c.type === 'invoice' && c.status === 'partial')?.count).toBe(301);
      const copies = `${invoice.number}-%`;
      // The copies' lines, in one statement; then each line once more (a designation twice on a document, counted
      // once), renamed with spaces around, and the second of each taken off: a statement each.
      const lineColumns =
        (await db.introspection.getTables())
          .find((t) => t.name === 'document_items')
          ?.columns.map((c) => c.name)
          .filter((c) => c !== 'id' && c !== 'document_id') ?? [];
      const copyLines = (from: RawBuilder<unknown>) =>
        sql`insert into document_items (document_id, ${sql.join(lineColumns.map((c) => sql.ref(c)))})
          select d.id, ${sql.join(lineColumns.map((c) => sql.ref(`i.${c}`)))} from documents d join document_items i on ${from}
          where d.organization_id = ${organizationId} and d.number like ${copies}`.execute(db);
      await copyLines(sql`i.document_id = ${invoice.id}`);
      expect((await same()).itemMonths.find((r) => r.name === 'Conseil')?.count).toBe(301);
      await copyLines(sql`i.document_id = d.id`);
      expect((await same()).itemMonths.find((r) => r.name === 'Conseil')?.count).toBe(301);
      await sql`update document_items set item = ' Conseil ', net = net + 1 where document_id in
        (select id from documents where organization_id = ${organizationId} and number like ${copies})`.execute(db);
      await same();
      await sql`delete from document_items where id in (select max(i.id) from document_items i join documents d on d.id = i.document_id
        where d.organization_id = ${organizationId} and d.number like ${copies} group by i.document_id)`.execute(db);
      expect((await same()).itemMonths.find((r) => r.name === 'Conseil')?.count).toBe(301);
      await sql`update documents set customer_name = customer_name || ' SA' where organization_id = ${organizationId} and number like ${copies}`.execute(
        db,
      );
      await same();
      // One invoice's customer name made the greatest, then another's made greater still (its old name was not the row's).
      const [one, two] = (
        await sql<{
          id: number;
        }>`select id from documents where organization_id = ${organizationId} and number like ${copies} order by id limit 2`.execute(db)
      ).rows.map((r) => Number(r.id));
      await sql`update documents set customer_name = 'Zy' where id = ${one}`.execute(db);
      expect((await same()).receivables.map((r) => r.customer_name)).toContain('Zy');
      await sql`update documents set customer_name = 'Zz' where id = ${two}`.execute(db);
      expect((await same()).receivables.map((r) => r.customer_name)).toContain('Zz');
      await sql`update documents set sent_at = '2026-10-06T10:00:00.000Z' where organization_id = ${organizationId}`.execute(db);
      await same();
      // Each copy paid twice in one statement, the payments moved across months, the copies' goods share changed (some
      // mixed, some all goods) and their rate: a statement each.
      for (const day of ['2026-10-07', '2026-11-02'])
        await sql`insert into payments (organization_id, document_id, date, amount, method, reference, note, created_at, updated_at)
          select organization_id, id, ${day}, 12345, 'transfer', '', '', ${day}, ${day} from documents
          where organization_id = ${organizationId} and number like ${copies}`.execute(db);
      expect((await same()).paymentMonths.reduce((n, r) => n + Number(r.count), 0)).toBe(601);
      await sql`update payments set date = case when id % 2 = 0 then '2026-09-30' else date end, amount = amount + 1
        where document_id in (select id from documents where organization_id = ${organizationId} and number like ${copies})`.execute(db);
      await same();
      await sql`update documents set goods_net = case when id % 3 = 0 then lines_net else lines_net / 3 end, exchange_rate = '1.5'
        where organization_id = ${organizationId} and number like ${copies}`.execute(db);
      expect((await same()).paymentMonths.some((r) => Number(r.part) > 0 && Number(r.goods) > 0)).toBe(true);
      await sql`update documents set status = 'paid', amount_due = 0 where organization_id = ${organizationId} and number like ${copies}`.execute(
        db,
      );
      await same();
      await sql`delete from documents where organization_id = ${organizationId} and number like ${copies}`.execute(db);
      expect(await same()).toEqual({ ...before, counts: (await readSummaries(db, organizationId)).counts });
      if (onPostgres) {
        // The deposit and its credit note gone in one statement: the credit note's share is taken off the row it was
        // added to, though its invoice is no longer there after the statement.
        await sql`delete from documents where id in (${deposit.id}, ${credit.id})`.execute(db);
        const after = await same();
        expect(after.days.some((d) => Number(d.deposit_credit) === 1)).toBe(false);
      }
    });
  });
});
