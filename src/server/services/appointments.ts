import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection';
import type { AppointmentForm, AppointmentListQuery, BillAppointmentsInput } from '../../shared/schemas/appointment';
import { documentInputSchema } from '../../shared/schemas/document';
import { toNumber } from '../../shared/money';
import { billedHours, durationLabel, durationSeconds } from '../../shared/appointment-billing';
import { formatDateShort as formatDate } from '../../shared/format';
import { fail } from '../errors';
import {
  deleteAppointment,
  findAppointment,
  insertAppointment,
  listAppointments,
  markBilled,
  updateAppointment,
  type StoredAppointment,
} from '../db/queries/appointments';
import { listTaxes } from '../db/queries/reference';
import { checkCustomer } from './document-defaults';
import { getItem } from './items';
import { createDocument, removeDocument } from './documents';
import { todayIso } from './document-record';
import { clock } from '../clock';

export const APPOINTMENT_NOT_FOUND = 'Rendez-vous introuvable';

/** What the API answers: the stored row without its internal keys. */
export function publicAppointment(a: StoredAppointment) {
  const { organization_id: _o, user_id: _u, uid: _uid, sequence: _s, ...rest } = a;
  return rest;
}

export async function getAppointment(db: Db, organizationId: number, id: number): Promise<StoredAppointment> {
  const found = await findAppointment(db, { organizationId, id });
  if (!found) fail('NOT_FOUND', APPOINTMENT_NOT_FOUND);
  return found;
}

/** The customer must be one of the organisation's own (another's id reads as unknown). */
async function checkAppointmentCustomer(db: Db, organizationId: number, input: AppointmentForm): Promise<void> {
  if (input.customer_id === null) return;
  await checkCustomer(db, organizationId, input.customer_id);
}

export async function listAppointmentsOf(db: Db, organizationId: number, query: AppointmentListQuery) {
  if (query.from && query.to && query.to < query.from) fail('BAD_REQUEST', 'Période : la date de fin est avant la date de début');
  const data = (
    await listAppointments(db, {
      organizationId,
      from: query.from,
      to: query.to,
      customerId: query.customer_id,
      status: query.status,
      billable: query.billable,
    })
  ).map(publicAppointment);
  return { total: data.length, data };
}

export async function createAppointment(db: Db, organizationId: number, userId: number, input: AppointmentForm) {
  await checkAppointmentCustomer(db, organizationId, input);
  const id = await insertAppointment(db, { organizationId, userId, uid: `${randomUUID()}@facturier`, appointment: input });
  return publicAppointment(await getAppointment(db, organizationId, id));
}

/** A billed appointment keeps what was invoiced: its date, hours, customer and status no longer move. */
export async function editAppointment(db: Db, organizationId: number, id: number, input: AppointmentForm) {
  const current = await getAppointment(db, organizationId, id);
  if (
    current.billed_document_id !== null &&
    (current.date !== input.date ||
      current.start !== input.start ||
      current.end !== input.end ||
      current.customer_id !== input.customer_id ||
      current.status !== input.status)
  )
    fail('CONFLICT', 'Ce rendez-vous est facturé : sa date, ses heures, son client et son statut ne changent plus');
  await checkAppointmentCustomer(db, organizationId, input);
  await updateAppointment(db, { organizationId, id, appointment: input });
  return publicAppointment(await getAppointment(db, organizationId, id));
}

export async function removeAppointment(db: Db, organizationId: number, id: number): Promise<void> {
  const current = await getAppointment(db, organizationId, id);
  if (current.billed_document_id !== null) fail('CONFLICT', 'Ce rendez-vous est facturé : il ne peut plus être supprimé');
  await deleteAppointment(db, { organizationId, id });
}

/**
 * « Facturer »: the chosen done appointments of one customer become the lines of a new draft invoice, each its duration
 * in hours (decimal, 4 places as any quantity) × the hourly rate of the chosen item, with that item's taxes. They are
 * marked billed on it; if another request billed one of them meanwhile, the draft is removed and nothing is billed twice.
 */
export async function billAppointments(db: Db, organizationId: number, input: BillAppointmentsInput) {
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  if (!customer) return fail('BAD_REQUEST', 'Client : introuvable');
  const item = await getItem(db, organizationId, input.item_id);
  const ids = [...new Set(input.appointment_ids)];
  const found = await listAppointments(db, { organizationId, ids });
  if (found.length !== ids.length) fail('NOT_FOUND', APPOINTMENT_NOT_FOUND);
  const problems = found.flatMap((a) => {
    const what = `« ${a.title} » du ${formatDate(a.date)}`;
    if (a.customer_id !== customer.id) return [`${what} : ce n’est pas un rendez-vous de ${customer.name}`];
    if (a.billed_document_id !== null) return [`${what} : déjà facturé`];
    if (a.status !== 'done') return [`${what} : seul un rendez-vous effectué se facture`];
    if (a.all_day) return [`${what} : un rendez-vous sur toute la journée n’a pas de durée à facturer`];
    return [];
  });
  if (problems.length) fail('BAD_REQUEST', problems.length === 1 ? (problems[0] as string) : problems);
  const taxes = await listTaxes(db, { organizationId });
  const lineTaxes = item.tax_ids.flatMap((taxId) => taxes.filter((t) => t.id === taxId).map((t) => ({ title: t.title, rate: t.rate })));
  const form = documentInputSchema.parse({
    type: 'invoice',
    date: todayIso(clock.now()),
    customer_id: customer.id,
    currency: customer.currency,
    items: found.map((a) => {
      const seconds = durationSeconds(a);
      return {
        item: item.name,
        code: item.code || null,
        description: `Rendez-vous du ${formatDate(a.date)}, ${a.start} – ${a.end} (${durationLabel(seconds)}) : ${a.title}`,
        quantity: toNumber(billedHours(a)),
        unit: item.unit,
        unit_price: item.unit_price,
        taxes: lineTaxes,
        kind: item.kind,
      };
    }),
  });
  const document = await createDocument(db, organizationId, form);
  const marked = await markBilled(db, { organizationId, ids, documentId: document.id });
  if (marked !== ids.length) {
    await removeDocument(db, organizationId, document.id);
    fail('CONFLICT', 'Ces rendez-vous viennent d’être facturés par ailleurs : rechargez la page');
  }
  return document;
}
