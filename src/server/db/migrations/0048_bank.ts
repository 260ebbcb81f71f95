import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * The bank as the source of « payé »: an organisation's accounts, the transactions read from their statements, and
 * what each transaction paid.
 *
 * `bank_transactions.fingerprint` is unique per account: the same statement, or one overlapping it, imported again
 * adds nothing (services/bank-import.ts says what the fingerprint is made of). `amount` is signed (a credit positive),
 * in ten-thousandths like every stored amount; `allocated` is what confirmed matches took of it, never more than its
 * absolute value. `suggestions` is the JSON list the matcher proposed at import.
 *
 * `bank_matches` links a transaction to the invoice payment or the expense it settled: a payment is never recorded
 * twice for one transaction and target (unique), and a transaction's matches never sum past its amount.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('bank_accounts'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('iban', 'text', (c) => c.notNull())
    .addColumn('bic', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('csv_mapping', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_accounts_iban_unique', ['organization_id', 'iban'])
    .execute();

  await withId(db.schema.createTable('bank_transactions'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('value_date', 'text')
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reference', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('unmatched', 'suggested', 'matched', 'ignored')`))
    .addColumn('allocated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suggestions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('ignore_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_file', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_transactions_fingerprint_unique', ['account_id', 'fingerprint'])
    .execute();
  // The list's question: an organisation's lines by status, newest first.
  await db.schema.createIndex('bank_transactions_list').on('bank_transactions').columns(['organization_id', 'status', 'date']).execute();

  await withId(db.schema.createTable('bank_matches'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('transaction_id', 'integer', (c) => c.notNull().references('bank_transactions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('invoice', 'expense')`))
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('payment_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_matches_target_unique', ['transaction_id', 'kind', 'target_id'])
    .execute();
  await db.schema.createIndex('bank_matches_target').on('bank_matches').columns(['organization_id', 'kind', 'target_id']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('bank_matches').execute();
  await db.schema.dropTable('bank_transactions').execute();
  await db.schema.dropTable('bank_accounts').execute();
}
