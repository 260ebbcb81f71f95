import { type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { isOneOfIds, isPostgres, jsonText } from '../dialect';
import type { Db } from '../connection';
import type { PaymentRemindersTable } from '../schema';
import { OPEN_STATUSES } from '../../../shared/document-status';

export type PaymentReminderRow = Selectable<PaymentRemindersTable>;

/** What the Relances list and the reminders job read of an invoice: the customer's address as it is now, else at issue. */
const REMINDABLE_COLUMNS = [
  'documents.id',
  'documents.number',
  'documents.maturity',
  'documents.amount_due',
  'documents.currency',
  'documents.customer_name',
  'documents.customer_snapshot',
  'customers.email as customer_email',
] as const;

/**
 * An organisation's issued invoices still to be paid, with a due date: those a reminder may concern.
 * `maturityOnOrBefore`: only those due on or before that day (a step can fall due for no other). The customer's
 * address as it is now, else the one frozen at issue.
 */
export async function listRemindableInvoices(db: Db, params: { organizationId: number; maturityOnOrBefore?: string }) {
  let query = db
    .selectFrom('documents')
    .leftJoin('customers', 'customers.id', 'documents.customer_id')
    .select(REMINDABLE_COLUMNS)
    .where('documents.organization_id', '=', params.organizationId)
    .where('documents.type', '=', 'invoice')
    .where('documents.status', 'in', OPEN_STATUSES)
    .where('documents.amount_due', '>', 0)
    .where('documents.maturity', 'is not', null)
    .where('documents.number', 'is not', null);
  if (params.maturityOnOrBefore !== undefined) query = query.where('documents.maturity', '<=', params.maturityOnOrBefore);
  return query.orderBy('documents.maturity').orderBy('documents.id').execute();
}

/**
 * A span of the Relances list in due dates: invoices due from `maturityFrom` (null: however long ago) to `maturityTo`
 * whose step `offset` falls due today, unless a step at least as late is sent or being sent (a failed one is tried
 * again). `proposed`: the step waits for a click.
 */
export interface DueSpanWindow {
  offset: number;
  maturityFrom: string | null;
  maturityTo: string;
  proposed: boolean;
}

/**
 * The terms of an invoice a reminder may concern, written as literals, exactly as the WHERE of the partial index
 * `documents_remindable_idx` (migration 0073): a planner takes a partial index only for a query whose terms imply it,
 * and bound parameters prove nothing. The reminders' summary is rebuilt with these terms (queries/summaries.ts); its
 * triggers (migration 0077) count the same invoices: change both together.
 */
export const REMINDABLE = sql<SqlBool>`documents.type = 'invoice' and documents.status in ('unpaid', 'partial') and documents.amount_due > 0 and documents.maturity is not null and documents.number is not null`;

/** A due date `maturity` within the span. */
const inSpan = (maturity: RawBuilder<string>, span: DueSpanWindow): RawBuilder<SqlBool> =>
  sql<SqlBool>`${maturity} <= ${span.maturityTo}${span.maturityFrom === null ? sql`` : sql` and ${maturity} >= ${span.maturityFrom}`}`;

/** An invoice of the span, its step not done. */
const dueIn = (span: DueSpanWindow): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${inSpan(sql.ref('documents.maturity'), span)} and not exists (select 1 from payment_reminders done where done.document_id = documents.id and done.status <> 'failed' and done.step >= ${span.offset}))`;

/** A row of the reminders' summary (migration 0077) in the span, its step not done: its last step done is earlier. */
const summaryDueIn = (span: DueSpanWindow): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${inSpan(sql.ref('maturity'), span)} and last_step < ${span.offset})`;

const anyOf = (conditions: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  conditions.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;

/**
 * On the Relances list: due today or earlier, or due later with a step before the due date falling due today. `today`
 * and the spans are the caller's; only the spans before the due date (maturity after today) can add an invoice.
 */
const onReminderList = (today: string, spans: readonly DueSpanWindow[], due = dueIn, maturity = sql.ref('documents.maturity')) =>
  sql<SqlBool>`(${maturity} <= ${today} or ${anyOf(spans.filter((s) => s.maturityTo > today).map(due))})`;

const remindableOf = (db: Db, organizationId: number) =>
  db.selectFrom('documents').where('documents.organization_id', '=', organizationId).where(REMINDABLE);

type ListParams = { organizationId: number; today: string; spans: readonly DueSpanWindow[] };

/** The last day a step of the spans reaches: today, or later for a step before the due date. */
const lastDueDate = (params: ListParams) =>
  params.spans.reduce((last, span) => (span.maturityTo > last ? span.maturityTo : last), params.today);

/**
 * The Relances list's head from the invoices counted per due date and last step done (migration 0077): a few rows per
 * day up to the last one a step reaches, whatever the number of invoices. The same sums as reminderCountsQuery, each
 * row standing for `count` invoices.
 */
export const reminderSummaryCountsQuery = (params: ListParams) =>
  sql<{ total: number | string | null; late: number | string | null; due_today: number | string | null }>`select
    sum(case when ${onReminderList(params.today, params.spans, summaryDueIn, sql.ref('maturity'))} then count else 0 end) as total,
    sum(case when maturity < ${params.today} then count else 0 end) as late,
    sum(case when ${anyOf(params.spans.map(summaryDueIn))} then count else 0 end) as due_today
    from summary_reminder_days
    where organization_id = ${params.organizationId} and maturity <= ${lastDueDate(params)}`;

/**
 * The Relances list's head straight from the invoices (its plan is tested): every invoice on it, those late, those a
 * step is due for. What the summary's counts must equal (their test compares them).
 * The WHERE is one range of due dates, up to the last day a step before the due date reaches; what is on the list
 * within it is decided in the sums. SQLite is told the partial index: its statistics on (organization_id, type,
 * status, maturity) made it read that one and each invoice’s row for the amount and number (28 ms instead of 8 at
 * 100,000 documents); PostgreSQL weighs them right.
 */
export const reminderCountsQuery = (db: Db, params: ListParams) => {
  const upTo = lastDueDate(params);
  const from = isPostgres(db) ? sql`documents` : sql`documents indexed by documents_remindable_idx`;
  return sql<{ total: number | string | null; late: number | string | null; due_today: number | string | null }>`select
    sum(case when ${onReminderList(params.today, params.spans)} then 1 else 0 end) as total,
    sum(case when documents.maturity < ${params.today} then 1 else 0 end) as late,
    sum(case when ${anyOf(params.spans.map(dueIn))} then 1 else 0 end) as due_today
    from ${from}
    where documents.organization_id = ${params.organizationId} and ${REMINDABLE} and documents.maturity <= ${upTo}`;
};

/** The Relances list's head, summed from its summary. */
export async function countReminderList(db: Db, params: ListParams): Promise<{ total: number; late: number; due_today: number }> {
  const row = (await reminderSummaryCountsQuery(params).execute(db)).rows[0];
  return { total: Number(row?.total ?? 0), late: Number(row?.late ?? 0), due_today: Number(row?.due_today ?? 0) };
}

/** One page of the Relances list as a query, the most overdue first (due date, then id: the partial index's order). */
export const reminderPageQuery = (db: Db, params: ListParams & { offset: number; limit: number }) =>
  remindableOf(db, params.organizationId)
    .leftJoin('customers', 'customers.id', 'documents.customer_id')
    .where(onReminderList(params.today, params.spans))
    .select(REMINDABLE_COLUMNS)
    .orderBy('documents.maturity')
    .orderBy('documents.id')
    .limit(params.limit)
    .offset(params.offset);

export const listReminderPage = (db: Db, params: ListParams & { offset: number; limit: number }) => reminderPageQuery(db, params).execute();

/**
 * Whether an invoice has an address a reminder can go to: its customer's as it is now, else the one frozen at issue.
 * The summary of migration 0080 holds the invoices it is true of (its triggers write it in SQL of their own, and the
 * rebuild with this): change them together.
 */
export const hasReminderAddress = (db: Db) =>
  sql<SqlBool>`coalesce(nullif(customers.email, ''), ${jsonText(db, sql.ref('documents.customer_snapshot'), 'email')}, '') <> ''`;

type ProposedRow = { id: number; customer_snapshot: string | null; customer_email: string | null };
const PROPOSED_COLUMNS = sql`documents.id, documents.customer_snapshot, customers.email as customer_email`;

/** The last due date a proposed step reaches ('' when none: nothing is proposed). */
const proposedUpTo = (spans: readonly DueSpanWindow[]) =>
  spans.reduce((last, span) => (span.proposed && span.maturityTo > last ? span.maturityTo : last), '');

/** An invoice a reminder may concern, a proposed step due, with an address. */
const proposedTerms = (db: Db, spans: readonly DueSpanWindow[]) =>
  sql<SqlBool>`${REMINDABLE} and ${anyOf(spans.filter((span) => span.proposed).map(dueIn))} and ${hasReminderAddress(db)}`;

/**
 * The first `limit` invoices, in list order, whose due step is a proposed one and that have an address (the
 * customer's as it is now, else the one frozen at issue), with what the caller needs to check that address. Read
 * from the invoices with an address (migration 0080) in list order, each checked on its own row and reminders with
 * the list's terms: it stops at the `limit`-th, however few customers have an address. Each planner is held to that
 * order: through the partial index of the invoices, SQLite would walk every one without an address first (`cross
 * join` keeps the summary outside); PostgreSQL, which cannot tell how many of the summary's rows pass the terms,
 * joined all of them by hash and sorted (the LATERAL subquery with its LIMIT is checked row by row, in the key's order).
 */
export const proposedRemindersQuery = (db: Db, params: ListParams & { limit: number }) => {
  // On PostgreSQL the invoice's id is its only term an index can seek: with the organisation and due date seekable
  // too, statistics older than the invoices (a day's import) made the planner walk (organisation, due date, date, id)
  // for each row, every invoice of that due date each time (40,000 due the same day: 37 s instead of 0.2).
  const sameKey = isPostgres(db)
    ? sql<SqlBool>`documents.maturity is not distinct from addressed.maturity and documents.organization_id is not distinct from addressed.organization_id`
    : sql<SqlBool>`documents.maturity = addressed.maturity and documents.organization_id = ${params.organizationId}`;
  const invoiceOfRow = sql<SqlBool>`documents.id = addressed.document_id and ${sameKey} and ${proposedTerms(db, params.spans)}`;
  const invoices = isPostgres(db)
    ? sql`cross join lateral (select ${PROPOSED_COLUMNS}
        from documents left join customers on customers.id = documents.customer_id where ${invoiceOfRow} limit 1) proposed`
    : sql`cross join documents left join customers on customers.id = documents.customer_id`;
  const columns = isPostgres(db) ? sql`proposed.id, proposed.customer_snapshot, proposed.customer_email` : PROPOSED_COLUMNS;
  return sql<ProposedRow>`select ${columns}
    from summary_reminder_addresses addressed ${invoices}
    where addressed.organization_id = ${params.organizationId} and addressed.maturity <= ${proposedUpTo(params.spans)}
    ${isPostgres(db) ? sql`` : sql`and ${invoiceOfRow}`}
    order by addressed.maturity, addressed.document_id
    limit ${params.limit}`;
};

/**
 * The same invoices straight from the invoices and customers, along the partial index of those a reminder may
 * concern (the query the list ran before the summary): what the summary's answer must equal (its test compares them).
 */
export const proposedRemindersPlainQuery = (db: Db, params: ListParams & { limit: number }) => {
  const from = isPostgres(db) ? sql`documents` : sql`documents indexed by documents_remindable_idx`;
  return sql<ProposedRow>`select ${PROPOSED_COLUMNS}
    from ${from} left join customers on customers.id = documents.customer_id
    where documents.organization_id = ${params.organizationId} and documents.maturity <= ${proposedUpTo(params.spans)}
    and ${proposedTerms(db, params.spans)}
    order by documents.maturity, documents.id
    limit ${params.limit}`;
};

export async function listProposedReminders(db: Db, params: ListParams & { limit: number }) {
  if (!params.spans.some((span) => span.proposed)) return [];
  return (await proposedRemindersQuery(db, params).execute(db)).rows;
}

/**
 * The reminders of these invoices, by invoice (step order within each). The ids are bound as one parameter: an
 * organisation may owe on more invoices than SQLite takes bound variables (32,766).
 */
export async function listRemindersOf(
  db: Db,
  params: { organizationId: number; documentIds: number[] },
): Promise<Map<number, PaymentReminderRow[]>> {
  const byDocument = new Map<number, PaymentReminderRow[]>();
  if (params.documentIds.length === 0) return byDocument;
  const rows = await db
    .selectFrom('payment_reminders')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where(isOneOfIds(db, sql.ref('document_id'), params.documentIds))
    .orderBy('step')
    .execute();
  for (const row of rows) byDocument.get(row.document_id)?.push(row) ?? byDocument.set(row.document_id, [row]);
  return byDocument;
}

/**
 * Takes the (document, step) row for sending: inserted, or taken back when its last attempt failed. Nothing when
 * the step is sent or being sent by someone else: the UNIQUE key and this one statement decide, whoever runs it.
 * A row left 'sending' by a process that died mid-send is never taken back: the mail may have left, and a customer
 * reminded twice is worse than a reminder that waits for the next step.
 */
export async function claimReminder(
  db: Db,
  params: { organizationId: number; documentId: number; step: number; trigger: 'automatic' | 'manual'; now: string },
): Promise<PaymentReminderRow | undefined> {
  return db
    .insertInto('payment_reminders')
    .values({
      organization_id: params.organizationId,
      document_id: params.documentId,
      step: params.step,
      status: 'sending',
      trigger: params.trigger,
      created_at: params.now,
      updated_at: params.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['document_id', 'step'])
        .doUpdateSet({ status: 'sending', trigger: params.trigger, updated_at: params.now })
        .where('payment_reminders.status', '=', 'failed'),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function finishReminder(
  db: Db,
  params: {
    id: number;
    status: 'sent' | 'failed';
    recipients: string;
    subject: string;
    error: string;
    sentAt: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .updateTable('payment_reminders')
    .set((eb) => ({
      status: params.status,
      recipients: params.recipients,
      subject: params.subject,
      error: params.error,
      sent_at: params.sentAt,
      attempts: eb('attempts', '+', 1),
      updated_at: params.now,
    }))
    .where('id', '=', params.id)
    .execute();
}
