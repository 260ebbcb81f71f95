import type { Db } from '../connection';
import type { ExpenseCategory } from '../../../shared/schemas/expense';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../../shared/expense-categories';

/** An organisation starts from the default list the first time it needs one (inserting twice changes nothing). */
export async function ensureDefaultCategories(db: Db, organizationId: number): Promise<void> {
  const existing = await db
    .selectFrom('expense_categories')
    .select('id')
    .where('organization_id', '=', organizationId)
    .limit(1)
    .executeTakeFirst();
  if (existing) return;
  await db
    .insertInto('expense_categories')
    .values(DEFAULT_EXPENSE_CATEGORIES.map((c, position) => ({ organization_id: organizationId, ...c, position })))
    .onConflict((oc) => oc.columns(['organization_id', 'code']).doNothing())
    .execute();
}

const fromRow = (row: { code: string; label: string; account: string; archived: number }): ExpenseCategory => ({
  ...row,
  archived: row.archived === 1,
});

/** Archived categories too (the expenses that use them show their label); the pickers leave them out. */
export async function listCategories(db: Db, organizationId: number): Promise<ExpenseCategory[]> {
  const rows = await db
    .selectFrom('expense_categories')
    .select(['code', 'label', 'account', 'archived'])
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .orderBy('label')
    .execute();
  return rows.map(fromRow);
}

export async function findCategory(db: Db, params: { organizationId: number; code: string }): Promise<ExpenseCategory | undefined> {
  const row = await db
    .selectFrom('expense_categories')
    .select(['code', 'label', 'account', 'archived'])
    .where('organization_id', '=', params.organizationId)
    .where('code', '=', params.code)
    .executeTakeFirst();
  return row && fromRow(row);
}

export async function setCategoryArchived(db: Db, params: { organizationId: number; code: string; archived: boolean }): Promise<void> {
  await db
    .updateTable('expense_categories')
    .set({ archived: params.archived ? 1 : 0 })
    .where('organization_id', '=', params.organizationId)
    .where('code', '=', params.code)
    .execute();
}

/** Adds a category, or renames and re-maps the one with that code. */
export async function upsertCategory(
  db: Db,
  params: { organizationId: number; category: Pick<ExpenseCategory, 'code' | 'label' | 'account'> },
): Promise<void> {
  const last = await db
    .selectFrom('expense_categories')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
  await db
    .insertInto('expense_categories')
    .values({ organization_id: params.organizationId, ...params.category, position: Number(last?.position ?? 0) + 1 })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'code']).doUpdateSet({ label: params.category.label, account: params.category.account }),
    )
    .execute();
}

export async function categoryInUse(db: Db, params: { organizationId: number; code: string }): Promise<boolean> {
  const row = await db
    .selectFrom('expenses')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('category', '=', params.code)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

export async function deleteCategory(db: Db, params: { organizationId: number; code: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('expense_categories')
    .where('organization_id', '=', params.organizationId)
    .where('code', '=', params.code)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
