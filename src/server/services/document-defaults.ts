import type { Db } from '../db/connection';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { DocumentForm } from '../../shared/schemas/document';
import type { CustomerParty } from '../../shared/schemas/document-parties';
import { defaultDeliveryAddress, type MentionCustomer } from '../../shared/legal-mentions';
import { addressSchema, type Address } from '../../shared/schemas/customer';
import { fail, failField } from '../errors';
import { findCustomer, type CustomerRecord } from '../db/queries/customers';
import { findDocumentSummary } from '../db/queries/document-lists';
import { documentTaxProblems, type TaxRules } from '../../shared/vat';
import { getAppSettings } from './settings';
import { taxRulesOf } from './tax-rules';
import { addDays } from '../../shared/payment-terms';

/** What a document takes from its customer: the fields it shows, its maturity and delivery address when the form leaves them out. */

/**
 * The customer as a document shows them (and keeps, once issued): their fields, and as `shipping` the document's own
 * delivery address (blank: delivered at the billing address). Frozen at issue with the seller, so the address an
 * invoice was sent with is part of what was issued.
 */
export const customerSnapshotOf = (c: CustomerRecord, delivery: Address | null): CustomerParty & MentionCustomer => ({
  id: c.id,
  number: c.number,
  type: c.type,
  name: c.name,
  legal_name: c.legal_name,
  email: c.email,
  business_id: c.business_id,
  vat_number: c.vat_number,
  address: c.address,
  shipping: delivery ?? addressSchema.parse({}),
  // Frozen with the rest: a later directory answer never readdresses an issued e-invoice.
  ...(c.directory_status === 'listed' && c.electronic_address
    ? { electronic_address: c.electronic_address, routing_code: c.routing_code }
    : {}),
});

/** A live customer of this organisation, or a 400 naming the field. */
export async function checkCustomer(db: Db, organizationId: number, customerId: number | null | undefined): Promise<CustomerRecord | null> {
  if (!customerId) return null;
  const customer = await findCustomer(db, { organizationId, id: customerId });
  if (!customer) return failField('customer_id', 'Client : introuvable');
  if (customer.deleted_at) failField('customer_id', 'Client : ce client est archivé, restaurez-le pour lui établir un document');
  return customer;
}

/** The order a document refers to: one of this organisation's orders, or a 400 (another's was stored). */
export async function checkOrder(db: Db, organizationId: number, orderId: number | null | undefined): Promise<void> {
  if (!orderId) return;
  const order = await findDocumentSummary(db, { organizationId, id: orderId });
  if (order?.type !== 'order') failField('order_id', 'Commande : introuvable');
}

/**
 * What the form leaves out, from the customer: the maturity from their payment days, else the organisation's (C. com.
 * L441-10); the delivery address from theirs (null, sent on purpose, means the billing address).
 */
export async function withDefaults(
  db: Db,
  organizationId: number,
  input: DocumentForm,
  customer: CustomerRecord | null,
): Promise<DocumentForm> {
  const form = {
    ...input,
    delivery_address: input.delivery_address === undefined ? defaultDeliveryAddress(customer) : input.delivery_address,
  };
  if (form.maturity !== undefined) {
    if (form.maturity && form.maturity < form.date)
      failField('maturity', `${DOCUMENT_TYPE_TABLE[form.type].maturityName} : elle ne peut précéder la date du document`);
    return form;
  }
  const days = customer?.maturity ?? (await getAppSettings(db, organizationId)).payment_days;
  return { ...form, maturity: addDays(form.date, days) };
}

/**
 * Refuses lines whose taxes break the rules (400 naming each line): VAT under the franchise en base, several taxes on a
 * line without the opt-in. A document that `mirrors` another (a credit note) keeps its taxes and is not checked.
 */
export async function checkTaxRules(db: Db, organizationId: number, form: DocumentForm, opts: { mirrors: boolean }): Promise<TaxRules> {
  const rules = await taxRulesOf(db, organizationId);
  if (opts.mirrors) return rules;
  const problems = documentTaxProblems(form, rules);
  if (problems.length > 0) fail('BAD_REQUEST', problems);
  return rules;
}
