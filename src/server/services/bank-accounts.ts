import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail, failField } from '../errors';
import { type BankAccountRow, findBankAccountRow, listBankAccountRows } from '../db/queries/bank';
import type { BankAccount, BankAccountInput } from '../../shared/schemas/bank';
import { printedIban } from '../../shared/iban';
import { fromStoredUnits } from '../../shared/money';

const ACCOUNT_NOT_FOUND = 'Compte bancaire introuvable';

const accountOf = (row: BankAccountRow): BankAccount => ({
  id: row.id,
  name: row.name,
  iban: row.iban,
  bic: row.bic,
  default: row.is_default === 1,
  transactions: Number(row.transactions ?? 0),
  to_review: Number(row.to_review ?? 0),
  last_date: row.last_date ?? null,
  statement_balance: row.statement_balance === null ? null : fromStoredUnits(row.statement_balance),
  statement_balance_date: row.statement_balance_date,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function listBankAccounts(db: Db, organizationId: number) {
  const data = (await listBankAccountRows(db, organizationId)).map(accountOf);
  return { total: data.length, data };
}

export async function getBankAccountRow(db: Db, organizationId: number, id: number): Promise<BankAccountRow> {
  return (await findBankAccountRow(db, organizationId, id)) ?? fail('NOT_FOUND', ACCOUNT_NOT_FOUND);
}

export async function getBankAccount(db: Db, organizationId: number, id: number): Promise<BankAccount> {
  return accountOf(await getBankAccountRow(db, organizationId, id));
}

/** An IBAN is one account of the organisation: a second one with it would split its statements in two. */
async function assertIbanFree(db: Db, organizationId: number, iban: string, except?: number) {
  const other = await db
    .selectFrom('bank_accounts')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('iban', '=', iban)
    .executeTakeFirst();
  if (other && other.id !== except) failField('iban', `IBAN : le compte « ${other.name} » a déjà l’IBAN ${printedIban(iban)}`);
}

/** The first account is the default; making one the default takes it from the others, in the same transaction. */
export async function createBankAccount(db: Db, organizationId: number, input: BankAccountInput): Promise<BankAccount> {
  await assertIbanFree(db, organizationId, input.iban);
  const id = await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('bank_accounts').select('id').where('organization_id', '=', organizationId).execute();
    const isDefault = input.default || existing.length === 0;
    if (isDefault) await trx.updateTable('bank_accounts').set({ is_default: 0 }).where('organization_id', '=', organizationId).execute();
    const now = nowIso();
    const row = await trx
      .insertInto('bank_accounts')
      .values({
        organization_id: organizationId,
        name: input.name,
        iban: input.iban,
        bic: input.bic,
        is_default: isDefault ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return getBankAccount(db, organizationId, id);
}

export async function updateBankAccount(db: Db, organizationId: number, id: number, input: BankAccountInput): Promise<BankAccount> {
  const current = await getBankAccountRow(db, organizationId, id);
  await assertIbanFree(db, organizationId, input.iban, id);
  if (current.iban !== input.iban && Number(current.transactions ?? 0) > 0)
    failField('iban', 'IBAN : ce compte a déjà des opérations importées, son IBAN ne change plus (créez un autre compte)');
  if (current.is_default === 1 && !input.default)
    failField('default', 'Compte par défaut : choisissez un autre compte par défaut plutôt que de retirer celui-ci');
  await db.transaction().execute(async (trx) => {
    if (input.default)
      await trx.updateTable('bank_accounts').set({ is_default: 0 }).where('organization_id', '=', organizationId).execute();
    await trx
      .updateTable('bank_accounts')
      .set({ name: input.name, iban: input.iban, bic: input.bic, is_default: input.default ? 1 : current.is_default, updated_at: nowIso() })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
  });
  return getBankAccount(db, organizationId, id);
}

/** An account whose lines paid something stays: those payments point at its lines. */
export async function deleteBankAccount(db: Db, organizationId: number, id: number): Promise<void> {
  const account = await getBankAccountRow(db, organizationId, id);
  const matched = await db
    .selectFrom('bank_matches as m')
    .innerJoin('bank_transactions as t', 't.id', 'm.transaction_id')
    .select('m.id')
    .where('t.account_id', '=', id)
    .executeTakeFirst();
  if (matched) fail('CONFLICT', `Le compte « ${account.name} » a des opérations rapprochées de paiements : il ne peut pas être supprimé`);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('bank_transactions').where('account_id', '=', id).execute();
    await trx.deleteFrom('bank_accounts').where('organization_id', '=', organizationId).where('id', '=', id).execute();
    if (account.is_default === 1) {
      const next = await trx
        .selectFrom('bank_accounts')
        .select('id')
        .where('organization_id', '=', organizationId)
        .orderBy('id')
        .executeTakeFirst();
      if (next) await trx.updateTable('bank_accounts').set({ is_default: 1 }).where('id', '=', next.id).execute();
    }
  });
}
