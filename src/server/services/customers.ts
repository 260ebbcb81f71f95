import type { Db } from '../db/connection';
import type { Customer } from '../../shared/schemas/customer';
import { formatCustomerNumber } from '../../shared/numbering';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { nextCounter } from '../db/queries/counters';
import { appendAudit } from './audit';
import { findCustomer, insertCustomer, setCustomerDeletedAt, updateCustomer, type CustomerRecord } from '../db/queries/customers';
import { getDocumentTemplate } from './settings';
import { removeSearchEntry, upsertSearchEntry } from '../db/queries/search';
import { setTaggings } from '../db/queries/tags';
import { checkTagIds } from './tags';
import { assertCurrencyEnabled } from './currencies';

/** Keeps the global search in step with the customer (archived customers are not offered). */
export async function indexCustomer(db: Db, organizationId: number, c: CustomerRecord): Promise<void> {
  if (c.deleted_at) return removeSearchEntry(db, { organizationId, kind: 'customer', refId: c.id });
  await upsertSearchEntry(db, {
    organizationId,
    kind: 'customer',
    refId: c.id,
    title: c.name,
    subtitle: c.number,
    body: [c.legal_name, c.email, c.business_id, c.vat_number, c.address.city].filter(Boolean).join(' '),
  });
}

const NOT_FOUND = 'Client introuvable';

export async function getCustomer(db: Db, organizationId: number, id: number): Promise<CustomerRecord> {
  const customer = await findCustomer(db, { organizationId, id });
  if (!customer) fail('NOT_FOUND', NOT_FOUND); // another organisation's id answers the same: never reveal it exists
  return customer;
}

/** The number comes from the organisation's customer series and its numbering settings, in the insert's transaction. */
export async function createCustomer(db: Db, organizationId: number, customer: Customer): Promise<CustomerRecord> {
  await checkTagIds(db, organizationId, 'customer', customer.tag_ids);
  await assertCurrencyEnabled(db, organizationId, customer.currency);
  const template = await getDocumentTemplate(db, organizationId);
  const id = await db.transaction().execute(async (trx) => {
    const counter = await nextCounter(trx, { organizationId, name: 'customer' });
    const id = await insertCustomer(trx, { organizationId, number: formatCustomerNumber(template.customer_numbering, counter), customer });
    await setTaggings(trx, { organizationId, kind: 'customer', refId: id, tagIds: customer.tag_ids });
    return id;
  });
  const created = await getCustomer(db, organizationId, id);
  await indexCustomer(db, organizationId, created);
  return created;
}

export async function editCustomer(db: Db, organizationId: number, id: number, customer: Customer): Promise<CustomerRecord> {
  const current = await getCustomer(db, organizationId, id);
  if (current.deleted_at) fail('CONFLICT', 'Ce client est archivé : restaurez-le avant de le modifier');
  await checkTagIds(db, organizationId, 'customer', customer.tag_ids);
  if (customer.currency !== current.currency) await assertCurrencyEnabled(db, organizationId, customer.currency);
  await db.transaction().execute(async (trx) => {
    await updateCustomer(trx, { organizationId, id, customer });
    await setTaggings(trx, { organizationId, kind: 'customer', refId: id, tagIds: customer.tag_ids });
  });
  const updated = await getCustomer(db, organizationId, id);
  await indexCustomer(db, organizationId, updated);
  return updated;
}

/** Archives: the record and its number stay, for the documents that name it (C. com. L123-22: ten years). */
export async function archiveCustomer(db: Db, organizationId: number, id: number, userId?: number): Promise<void> {
  const current = await getCustomer(db, organizationId, id);
  if (current.deleted_at) return;
  await db.transaction().execute(async (trx) => {
    await setCustomerDeletedAt(trx, { organizationId, id, deletedAt: nowIso() });
    const customer = { id, number: current.number, name: current.name };
    await appendAudit(trx, organizationId, 'customer_archive', { customer }, userId);
  });
  await removeSearchEntry(db, { organizationId, kind: 'customer', refId: id });
}

export async function restoreCustomer(db: Db, organizationId: number, id: number): Promise<CustomerRecord> {
  await getCustomer(db, organizationId, id);
  await setCustomerDeletedAt(db, { organizationId, id, deletedAt: null });
  const restored = await getCustomer(db, organizationId, id);
  await indexCustomer(db, organizationId, restored);
  return restored;
}
