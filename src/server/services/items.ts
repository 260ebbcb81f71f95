import type { Db } from '../db/connection';
import type { Item } from '../../shared/schemas/item';
import { AppError, besideField, fail } from '../errors';
import { nowIso } from '../clock';
import { findItem, findItemByCode, insertItem, setItemDeletedAt, updateItem, type ItemRecord } from '../db/queries/items';
import { listTaxes, listUnits } from '../db/queries/reference';
import { removeSearchEntry, upsertSearchEntry } from '../db/queries/search';
import { setTaggings } from '../db/queries/tags';
import { checkTagIds } from './tags';
import { defined } from '../../shared/defined';
import { taxProblem } from '../../shared/vat';
import { taxRulesOf } from './tax-rules';

const isDefined = <T>(v: T | undefined): v is T => v !== undefined;

/** Keeps the global search in step with the item (archived items are not offered). */
async function index(db: Db, organizationId: number, item: ItemRecord): Promise<ItemRecord> {
  if (item.deleted_at) await removeSearchEntry(db, { organizationId, kind: 'item', refId: item.id });
  else
    await upsertSearchEntry(db, {
      organizationId,
      kind: 'item',
      refId: item.id,
      title: item.name,
      subtitle: item.code,
      body: [item.sku, item.description].filter(Boolean).join(' '),
    });
  return item;
}

export async function getItem(db: Db, organizationId: number, id: number): Promise<ItemRecord> {
  const item = await findItem(db, { organizationId, id });
  if (!item) fail('NOT_FOUND', 'Article introuvable');
  return item;
}

/**
 * The unit and taxes must be the organisation's own, and follow its VAT rules (one rate unless several are allowed, none
 * under the franchise en base); the code, when given, unique among its live items.
 */
async function checkItem(db: Db, organizationId: number, item: Item, exceptId?: number): Promise<void> {
  // Each problem by the field it is about, so that the form shows it there.
  const fields: Record<string, string> = {};
  const problems: string[] = [];
  const units = await listUnits(db, { organizationId });
  if (!units.some((u) => u.name === item.unit)) {
    problems.push(`Unité inconnue : « ${item.unit} ». Ajoutez-la dans Paramètres → Unités.`);
    fields.unit = 'Unité inconnue : ajoutez-la dans Paramètres → Unités';
  }
  const taxes = await listTaxes(db, { organizationId });
  const chosen = item.tax_ids.map((id) => taxes.find((t) => t.id === id));
  if (chosen.some((t) => !t)) {
    problems.push('TVA inconnue : choisissez parmi les taux de Paramètres → TVA.');
    fields.tax_ids = 'TVA inconnue : choisissez parmi les taux de Paramètres → TVA';
  } else {
    const problem = taxProblem(`Article « ${item.name} »`, chosen.filter(isDefined), await taxRulesOf(db, organizationId), 'article');
    if (problem) {
      problems.push(problem);
      fields.tax_ids = besideField(problem);
    }
  }
  if (problems.length) throw new AppError('BAD_REQUEST', problems.length === 1 ? defined(problems[0], 'problems[0]') : problems, fields);
  await checkTagIds(db, organizationId, 'item', item.tag_ids);
  if (item.code && (await findItemByCode(db, { organizationId, code: item.code, exceptId })))
    fail('CONFLICT', `Le code article « ${item.code} » est déjà utilisé`);
}

export async function createItem(db: Db, organizationId: number, item: Item): Promise<ItemRecord> {
  await checkItem(db, organizationId, item);
  const id = await db.transaction().execute(async (trx) => {
    const id = await insertItem(trx, { organizationId, item });
    await setTaggings(trx, { organizationId, kind: 'item', refId: id, tagIds: item.tag_ids });
    return id;
  });
  return index(db, organizationId, await getItem(db, organizationId, id));
}

export async function editItem(db: Db, organizationId: number, id: number, item: Item): Promise<ItemRecord> {
  const current = await getItem(db, organizationId, id);
  if (current.deleted_at) fail('CONFLICT', 'Cet article est archivé : restaurez-le avant de le modifier');
  await checkItem(db, organizationId, item, id);
  await db.transaction().execute(async (trx) => {
    await updateItem(trx, { organizationId, id, item });
    await setTaggings(trx, { organizationId, kind: 'item', refId: id, tagIds: item.tag_ids });
  });
  return index(db, organizationId, await getItem(db, organizationId, id));
}

export async function archiveItem(db: Db, organizationId: number, id: number): Promise<void> {
  const current = await getItem(db, organizationId, id);
  if (current.deleted_at) return;
  await setItemDeletedAt(db, { organizationId, id, deletedAt: nowIso() });
  await removeSearchEntry(db, { organizationId, kind: 'item', refId: id });
}

export async function restoreItem(db: Db, organizationId: number, id: number): Promise<ItemRecord> {
  const current = await getItem(db, organizationId, id);
  if (current.code && (await findItemByCode(db, { organizationId, code: current.code, exceptId: id }))) {
    fail('CONFLICT', `Le code article « ${current.code} » a été repris par un autre article : changez-le avant de restaurer`);
  }
  await setItemDeletedAt(db, { organizationId, id, deletedAt: null });
  return index(db, organizationId, await getItem(db, organizationId, id));
}
