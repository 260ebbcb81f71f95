import type { Db } from '../db/connection';
import type { Customer } from '../../shared/schemas/customer';
import { formatCustomerNumber } from '../../shared/numbering';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { nextCounter } from '../db/queries/counters';
import { findCustomer, insertCustomer, setCustomerDeletedAt, updateCustomer, type CustomerRecord } from '../db/queries/customers';
import { getDocumentTemplate } from './settings';

const NOT_FOUND = 'Client introuvable';

export async function getCustomer(db: Db, organizationId: number, id: number): Promise<CustomerRecord> {
  const customer = await findCustomer(db, { organizationId, id });
  if (!customer) fail('NOT_FOUND', NOT_FOUND); // another organisation's id answers the same: never reveal it exists
  return customer!;
}

/** The number comes from the organisation's customer series and its numbering settings, in the insert's transaction. */
export async function createCustomer(db: Db, organizationId: number, customer: Customer): Promise<CustomerRecord> {
  const template = await getDocumentTemplate(db, organizationId);
  const id = await db.transaction().execute(async (trx) => {
    const counter = await nextCounter(trx, { organizationId, name: 'customer' });
    return insertCustomer(trx, { organizationId, number: formatCustomerNumber(template.customer_numbering, counter), customer });
  });
  return getCustomer(db, organizationId, id);
}

export async function editCustomer(db: Db, organizationId: number, id: number, customer: Customer): Promise<CustomerRecord> {
  const current = await getCustomer(db, organizationId, id);
  if (current.deleted_at) fail('CONFLICT', 'Ce client est archivé : restaurez-le avant de le modifier');
  await updateCustomer(db, { organizationId, id, customer });
  return getCustomer(db, organizationId, id);
}

/** Archives: the record and its number stay, for the documents that name it (C. com. L123-22: ten years). */
export async function archiveCustomer(db: Db, organizationId: number, id: number): Promise<void> {
  const current = await getCustomer(db, organizationId, id);
  if (current.deleted_at) return;
  await setCustomerDeletedAt(db, { organizationId, id, deletedAt: nowIso() });
}

export async function restoreCustomer(db: Db, organizationId: number, id: number): Promise<CustomerRecord> {
  await getCustomer(db, organizationId, id);
  await setCustomerDeletedAt(db, { organizationId, id, deletedAt: null });
  return getCustomer(db, organizationId, id);
}
