import type { MigrationDb } from './helpers';

/**
 * The balance the bank states at the end of the latest statement imported on an account (camt CLBD, OFX LEDGERBAL), in
 * ten-thousandths, and its date: what the books are reconciled against. null until a statement that states one.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('bank_accounts').addColumn('statement_balance', 'integer').execute();
  await db.schema.alterTable('bank_accounts').addColumn('statement_balance_date', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('bank_accounts').dropColumn('statement_balance_date').execute();
  await db.schema.alterTable('bank_accounts').dropColumn('statement_balance').execute();
}
