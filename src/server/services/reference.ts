import type { Db } from '../db/connection';
import type { TaxRateInput } from '../../shared/schemas/reference';
import { fail } from '../errors';
import {
  countItemsUsing,
  deleteTax,
  deleteUnit,
  findUnit,
  insertTax,
  insertUnit,
  listTaxes,
  listUnits,
  updateTax,
} from '../db/queries/reference';
import { defined } from '../../shared/defined';
import { plural } from '../../shared/french';

const used = (n: number, what: string) => `${what} est utilisée par ${plural(n, 'article')} : changez-les d’abord`;

export async function createTax(db: Db, organizationId: number, input: TaxRateInput) {
  const id = await insertTax(db, { organizationId, ...input });
  return defined((await listTaxes(db, { organizationId })).find((t) => t.id === id));
}

export async function editTax(db: Db, organizationId: number, id: number, input: TaxRateInput) {
  if (!(await updateTax(db, { organizationId, id, ...input }))) fail('NOT_FOUND', 'Taux de TVA introuvable');
  return defined((await listTaxes(db, { organizationId })).find((t) => t.id === id));
}

/** A rate still set on live items stays: documents already issued keep their own copy of it anyway. */
export async function removeTax(db: Db, organizationId: number, id: number): Promise<void> {
  const exists = (await listTaxes(db, { organizationId })).some((t) => t.id === id);
  if (!exists) fail('NOT_FOUND', 'Taux de TVA introuvable');
  const n = await countItemsUsing(db, { organizationId, taxId: id });
  if (n > 0) fail('CONFLICT', used(n, 'Cette TVA'));
  await deleteTax(db, { organizationId, id });
}

export async function createUnit(db: Db, organizationId: number, name: string) {
  if ((await listUnits(db, { organizationId })).some((u) => u.name.toLowerCase() === name.toLowerCase()))
    fail('CONFLICT', `L’unité « ${name} » existe déjà`);
  const id = await insertUnit(db, { organizationId, name });
  return defined((await listUnits(db, { organizationId })).find((u) => u.id === id));
}

export async function removeUnit(db: Db, organizationId: number, id: number): Promise<void> {
  const unit = await findUnit(db, { organizationId, id });
  if (!unit) fail('NOT_FOUND', 'Unité introuvable');
  const n = await countItemsUsing(db, { organizationId, unit: unit.name });
  if (n > 0) fail('CONFLICT', used(n, 'Cette unité'));
  await deleteUnit(db, { organizationId, id });
}
