import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { AppointmentsTable } from '../schema';
import type { Appointment, AppointmentForm, AppointmentStatus } from '../../../shared/schemas/appointment';
import { nowIso } from '../../clock';

type Row = Selectable<AppointmentsTable> & { customer_name: string | null; customer_email: string | null };

export interface StoredAppointment extends Appointment {
  organization_id: number;
  user_id: number | null;
  uid: string;
  sequence: number;
}

function fromRow(row: Row): StoredAppointment {
  return {
    id: row.id,
    organization_id: row.organization_id,
    user_id: row.user_id,
    title: row.title,
    date: row.date,
    all_day: row.all_day === 1,
    start: row.start,
    end: row.end,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    location: row.location,
    note: row.note,
    status: row.status as AppointmentStatus,
    reminder_minutes: row.reminder_minutes,
    billed_document_id: row.billed_document_id,
    uid: row.uid,
    sequence: row.sequence,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function select(db: Db) {
  return db
    .selectFrom('appointments as a')
    .leftJoin('customers as c', (join) => join.onRef('c.id', '=', 'a.customer_id').onRef('c.organization_id', '=', 'a.organization_id'))
    .selectAll('a')
    .select(['c.name as customer_name', 'c.email as customer_email']);
}

const toColumns = (a: AppointmentForm) => ({
  title: a.title,
  date: a.date,
  all_day: a.all_day ? 1 : 0,
  start: a.start,
  end: a.end,
  customer_id: a.customer_id,
  location: a.location,
  note: a.note,
  status: a.status,
  reminder_minutes: a.reminder_minutes,
});

export async function insertAppointment(
  db: Db,
  params: { organizationId: number; userId: number | null; uid: string; appointment: AppointmentForm },
): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('appointments')
    .values({
      organization_id: params.organizationId,
      user_id: params.userId,
      uid: params.uid,
      sequence: 0,
      billed_document_id: null,
      ...toColumns(params.appointment),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateAppointment(
  db: Db,
  params: { organizationId: number; id: number; appointment: AppointmentForm },
): Promise<void> {
  await db
    .updateTable('appointments')
    .set((eb) => ({ ...toColumns(params.appointment), sequence: eb('sequence', '+', 1), updated_at: nowIso() }))
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function findAppointment(db: Db, params: { organizationId: number; id: number }): Promise<StoredAppointment | undefined> {
  const row = await select(db).where('a.organization_id', '=', params.organizationId).where('a.id', '=', params.id).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

export async function deleteAppointment(db: Db, params: { organizationId: number; id: number }): Promise<void> {
  await db.deleteFrom('appointment_reminders').where('appointment_id', '=', params.id).execute();
  await db.deleteFrom('appointments').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}

export interface AppointmentListParams {
  organizationId: number;
  from?: string;
  to?: string;
  customerId?: number;
  status?: AppointmentStatus;
  /** Done and not billed yet. */
  billable?: boolean;
  ids?: number[];
}

/** In date and time order; all-day ones first on their day. */
export async function listAppointments(db: Db, params: AppointmentListParams): Promise<StoredAppointment[]> {
  let query = select(db).where('a.organization_id', '=', params.organizationId);
  if (params.from) query = query.where('a.date', '>=', params.from);
  if (params.to) query = query.where('a.date', '<=', params.to);
  if (params.customerId) query = query.where('a.customer_id', '=', params.customerId);
  if (params.status) query = query.where('a.status', '=', params.status);
  if (params.billable) query = query.where('a.status', '=', 'done').where('a.billed_document_id', 'is', null).where('a.all_day', '=', 0);
  if (params.ids) query = query.where('a.id', 'in', params.ids.length ? params.ids : [0]);
  const rows = await query.orderBy('a.date').orderBy('a.all_day', 'desc').orderBy('a.start').orderBy('a.id').execute();
  return rows.map(fromRow);
}

/** Marks appointments billed on a document, only those still unbilled; answers how many it marked. */
export async function markBilled(db: Db, params: { organizationId: number; ids: number[]; documentId: number }): Promise<number> {
  const result = await db
    .updateTable('appointments')
    .set({ billed_document_id: params.documentId, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', 'in', params.ids)
    .where('billed_document_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Planned timed appointments with a reminder, on the dates given (every organisation: the scheduler's look-up). */
export async function appointmentsWithReminders(db: Db, dates: string[]): Promise<StoredAppointment[]> {
  const rows = await select(db)
    .where('a.date', 'in', dates)
    .where('a.status', '=', 'planned')
    .where('a.reminder_minutes', 'is not', null)
    .where('a.user_id', 'is not', null)
    .execute();
  return rows.map(fromRow);
}

/** Claims the reminder of one appointment for one start moment: false when it was already sent. */
export async function claimReminder(db: Db, params: { appointmentId: number; startsAt: string }): Promise<boolean> {
  const result = await db
    .insertInto('appointment_reminders')
    .values({ appointment_id: params.appointmentId, starts_at: params.startsAt, sent_at: nowIso() })
    .onConflict((oc) => oc.columns(['appointment_id', 'starts_at']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function releaseReminder(db: Db, params: { appointmentId: number; startsAt: string }): Promise<void> {
  await db
    .deleteFrom('appointment_reminders')
    .where('appointment_id', '=', params.appointmentId)
    .where('starts_at', '=', params.startsAt)
    .execute();
}

export async function findFeedByHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('calendar_feeds')
    .select(['organization_id', 'user_id', 'created_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findFeedOfUser(db: Db, params: { organizationId: number; userId: number }) {
  return db
    .selectFrom('calendar_feeds')
    .select(['created_at'])
    .where('organization_id', '=', params.organizationId)
    .where('user_id', '=', params.userId)
    .executeTakeFirst();
}

/** One feed per user and organisation: a new token replaces the old one, which stops working. */
export async function replaceFeed(db: Db, params: { organizationId: number; userId: number; tokenHash: string | null }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('calendar_feeds')
      .where('organization_id', '=', params.organizationId)
      .where('user_id', '=', params.userId)
      .execute();
    if (params.tokenHash)
      await trx
        .insertInto('calendar_feeds')
        .values({ organization_id: params.organizationId, user_id: params.userId, token_hash: params.tokenHash, created_at: nowIso() })
        .execute();
  });
}
