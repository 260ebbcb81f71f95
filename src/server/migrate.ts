import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './db/connection';
import { isPostgres, postgresSchemaPlugin, resyncIdentities } from './db/dialect';
import { signUnsignedSeals } from './services/audit-closings';
import * as m0001 from './db/migrations/0001_init';
import * as m0002 from './db/migrations/0002_reference_data';
import * as m0003 from './db/migrations/0003_items';
import * as m0004 from './db/migrations/0004_search';
import * as m0005 from './db/migrations/0005_tags';
import * as m0006 from './db/migrations/0006_currencies';
import * as m0007 from './db/migrations/0007_documents';
import * as m0008 from './db/migrations/0008_line_amounts';
import * as m0009 from './db/migrations/0009_idempotency';
import * as m0010 from './db/migrations/0010_audit_log';
import * as m0012 from './db/migrations/0012_template_snapshot';
import * as m0013 from './db/migrations/0013_pdf_archive';
import * as m0014 from './db/migrations/0014_shipping_tax';
import * as m0015 from './db/migrations/0015_document_references';
import * as m0016 from './db/migrations/0016_unique_numbers';
import * as m0017 from './db/migrations/0017_audit_backfill';
import * as m0019 from './db/migrations/0019_einvoice_lifecycle';
import * as m0020 from './db/migrations/0020_expenses';
import * as m0021 from './db/migrations/0021_recurring_expenses';
import * as m0024 from './db/migrations/0024_quote_responses';
import * as m0025 from './db/migrations/0025_expense_category_archive';
import * as m0026 from './db/migrations/0026_payment_reminders';
import * as m0027 from './db/migrations/0027_recurring_invoices';
import * as m0028 from './db/migrations/0028_appointments';
import * as m0029 from './db/migrations/0029_report_rates';
import * as m0030 from './db/migrations/0030_report_shares';
import * as m0031 from './db/migrations/0031_team';
import * as m0032 from './db/migrations/0032_devices';
import * as m0033 from './db/migrations/0033_supplier_credit_notes';
import * as m0034 from './db/migrations/0034_api_keys';
import * as m0035 from './db/migrations/0035_webhooks';
import * as m0036 from './db/migrations/0036_list_indexes';
import * as m0037 from './db/migrations/0037_subscriptions';
import * as m0038 from './db/migrations/0038_report_aggregates';
import * as m0039 from './db/migrations/0039_pending_plan_change';
import * as m0040 from './db/migrations/0040_search_by_organization';
import * as m0041 from './db/migrations/0041_shared_rate_limits';
import * as m0042 from './db/migrations/0042_postgres_list_speed';
import * as m0043 from './db/migrations/0043_documents_created_index';
import * as m0044 from './db/migrations/0044_einvoicing_settings';
import * as m0045 from './db/migrations/0045_einvoice_flows';
import * as m0046 from './db/migrations/0046_einvoice_inbox';
import * as m0047 from './db/migrations/0047_einvoice_status_flows';
import * as m0048 from './db/migrations/0048_bank';
import * as m0049 from './db/migrations/0049_expense_reverse_charge';
import * as m0050 from './db/migrations/0050_card_payments';
import * as m0051 from './db/migrations/0051_ereporting';
import * as m0052 from './db/migrations/0052_credit_allocations';
import * as m0053 from './db/migrations/0053_supplier_books';
import * as m0054 from './db/migrations/0054_webhook_reliability';
import * as m0055 from './db/migrations/0055_audit_closings';
import * as m0056 from './db/migrations/0056_bank_account_from_profile';
import * as m0057 from './db/migrations/0057_bank_statement_balance';
import * as m0062 from './db/migrations/0062_sender_addresses';
import * as m0063 from './db/migrations/0063_own_directory';
import * as m0064 from './db/migrations/0064_ereporting_purchases';
import * as m0065 from './db/migrations/0065_data_generations';
import * as m0066 from './db/migrations/0066_document_summaries';
import * as m0069 from './db/migrations/0069_vat_ledger';
import * as m0070 from './db/migrations/0070_ordered_generations_grouped_summaries';
import * as m0072 from './db/migrations/0072_vat_ledger_line_index';
import * as m0073 from './db/migrations/0073_remindable_index';
import * as m0074 from './db/migrations/0074_turnover_summaries';
import * as m0075 from './db/migrations/0075_receipt_summaries';
import * as m0076 from './db/migrations/0076_search_words_by_organization';
import * as m0077 from './db/migrations/0077_reminder_summaries';
import * as m0078 from './db/migrations/0078_search_index_vocabulary';
import * as m0079 from './db/migrations/0079_list_sort_indexes';
import * as m0080 from './db/migrations/0080_reminder_addresses';
import * as m0081 from './db/migrations/0081_search_newest_documents';
import * as m0082 from './db/migrations/0082_overdue_customers_covered';
import * as m0083 from './db/migrations/0083_search_index_terms';

/**
 * Migrations are listed here rather than read from the folder, so that the bundled server (one file built by
 * Vite) carries them. Add a new file as NNNN_name.ts and one line below; never edit an applied migration.
 */
const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_reference_data': m0002,
  '0003_items': m0003,
  '0004_search': m0004,
  '0005_tags': m0005,
  '0006_currencies': m0006,
  '0007_documents': m0007,
  '0008_line_amounts': m0008,
  '0009_idempotency': m0009,
  '0010_audit_log': m0010,
  '0012_template_snapshot': m0012,
  '0013_pdf_archive': m0013,
  '0014_shipping_tax': m0014,
  '0015_document_references': m0015,
  '0016_unique_numbers': m0016,
  '0017_audit_backfill': m0017,
  '0019_einvoice_lifecycle': m0019,
  '0020_expenses': m0020,
  '0021_recurring_expenses': m0021,
  '0024_quote_responses': m0024,
  '0025_expense_category_archive': m0025,
  '0026_payment_reminders': m0026,
  '0027_recurring_invoices': m0027,
  '0028_appointments': m0028,
  '0029_report_rates': m0029,
  '0030_report_shares': m0030,
  '0031_team': m0031,
  '0032_devices': m0032,
  '0033_supplier_credit_notes': m0033,
  '0034_api_keys': m0034,
  '0035_webhooks': m0035,
  '0036_list_indexes': m0036,
  '0037_subscriptions': m0037,
  '0038_report_aggregates': m0038,
  '0039_pending_plan_change': m0039,
  '0040_search_by_organization': m0040,
  '0041_shared_rate_limits': m0041,
  '0042_postgres_list_speed': m0042,
  '0043_documents_created_index': m0043,
  '0044_einvoicing_settings': m0044,
  '0045_einvoice_flows': m0045,
  '0046_einvoice_inbox': m0046,
  '0047_einvoice_status_flows': m0047,
  '0048_bank': m0048,
  '0049_expense_reverse_charge': m0049,
  '0050_card_payments': m0050,
  '0051_ereporting': m0051,
  '0052_credit_allocations': m0052,
  '0053_supplier_books': m0053,
  '0054_webhook_reliability': m0054,
  '0055_audit_closings': m0055,
  '0056_bank_account_from_profile': m0056,
  '0057_bank_statement_balance': m0057,
  '0062_sender_addresses': m0062,
  '0063_own_directory': m0063,
  '0064_ereporting_purchases': m0064,
  '0065_data_generations': m0065,
  '0066_document_summaries': m0066,
  '0069_vat_ledger': m0069,
  '0070_ordered_generations_grouped_summaries': m0070,
  '0072_vat_ledger_line_index': m0072,
  '0073_remindable_index': m0073,
  '0074_turnover_summaries': m0074,
  '0075_receipt_summaries': m0075,
  '0076_search_words_by_organization': m0076,
  '0077_reminder_summaries': m0077,
  '0078_search_index_vocabulary': m0078,
  '0079_list_sort_indexes': m0079,
  '0080_reminder_addresses': m0080,
  '0081_search_newest_documents': m0081,
  '0082_overdue_customers_covered': m0082,
  '0083_search_index_terms': m0083,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** On PostgreSQL the migrations' column types are translated (db/dialect.ts); they run each in its own transaction. */
export const createMigrator = (db: Db) => new Migrator({ db: isPostgres(db) ? db.withPlugin(postgresSchemaPlugin) : db, provider });

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'inconnue';
    throw new Error(`La migration ${failed} a échoué : ${error instanceof Error ? error.message : String(error)}`);
  }
  await resyncIdentities(db);
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  // Migration 0055 cannot read the audit key (it lives outside the database): the seals it just wrote are signed here,
  // and only here (services/audit-closings.ts says why not at a later start).
  if (applied.includes('0055_audit_closings')) await signUnsignedSeals(db);
  return applied;
}
