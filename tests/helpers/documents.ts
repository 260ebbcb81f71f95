import { parisToday } from '../../src/shared/paris-date';
import { statusLabel } from '../../src/shared/status';
import type { Session } from './clients';
import type { Caller } from './caller';
import type { DocumentInput } from '../../src/shared/schemas/document';

/** A seller whose invoices carry every mention French law asks for. */
export const sellerIdentity = {
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '552 032 534 00646',
  rcs_city: 'Paris',
  vat_number: 'FR27552032534',
  address: { line1: '12 rue des Lilas', postal_code: '75011', city: 'Paris' },
};

export const businessCustomer = {
  name: 'Boulangerie Martin',
  business_id: '732 829 320',
  address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
  maturity: 30,
};

export const line = (item: string, quantity: number, unit_price: number, rate = 20, extra: Record<string, unknown> = {}) => ({
  item,
  quantity,
  unit_price,
  taxes: [{ title: `TVA ${String(rate).replace('.', ',')} %`, rate }],
  ...extra,
});

/** Registers the legal identity and one business customer: what issuing an invoice needs. */
export async function readyToInvoice(session: Session): Promise<{ customerId: number }> {
  const org = await session.rest('PUT', '/api/organization', sellerIdentity);
  if (org.status !== 200) throw new Error(`organisation: ${org.status} ${JSON.stringify(org.body)}`);
  const customer = await session.rest('POST', '/api/customers', businessCustomer);
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
  return { customerId: customer.body.data.id };
}

/** A business customer of this name with this e-mail address (where reminders and documents are sent); its id. */
export async function customerWithEmail(session: Session, name: string, email: string): Promise<number> {
  const answer = await session.rest('POST', '/api/customers', { ...businessCustomer, name, email });
  if (answer.status !== 201) throw new Error(`customer: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

/**
 * The status an invoice still owed shows today. The app derives « En retard » from the day: an invoice of the helpers'
 * date (2 November 2026, due a month later) shows it once its due date has passed, whichever day the tests run.
 */
export function owedStatus(document: { maturity: string | null }, owed: 'unpaid' | 'partial' = 'unpaid'): string {
  return document.maturity !== null && document.maturity < parisToday() ? 'overdue' : owed;
}

/** The label the screens show for that status (« Impayée », or « Exigible » once due). */
export const owedLabel = (document: { maturity: string | null }, owed: 'unpaid' | 'partial' = 'unpaid'): string =>
  statusLabel(owedStatus(document, owed));

export async function draft(session: Session, body: Record<string, unknown>) {
  const answer = await session.rest('POST', '/api/documents', { date: '2026-11-02', ...body });
  if (answer.status !== 201) throw new Error(`draft: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

export async function issued(session: Session, body: Record<string, unknown>) {
  const created = await draft(session, body);
  const answer = await session.rest('POST', `/api/documents/${created.id}/issue`);
  if (answer.status !== 200) throw new Error(`issue: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** The same steps in process, through createCaller (tests/helpers/caller.ts). */
export const inProcess = {
  async readyToInvoice(caller: Caller): Promise<{ customerId: number }> {
    await caller.organization.update(sellerIdentity);
    return { customerId: (await caller.customers.create(businessCustomer)).data.id };
  },
  async draft(caller: Caller, input: Omit<DocumentInput, 'date'> & { date?: string }) {
    return (await caller.documents.create({ ...input, date: input.date ?? '2026-11-02' })).data;
  },
  async issued(caller: Caller, input: Omit<DocumentInput, 'date'> & { date?: string }) {
    const created = await inProcess.draft(caller, input);
    return (await caller.documents.issue({ id: created.id })).data;
  },
};
