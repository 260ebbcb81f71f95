import { sql, type Kysely } from 'kysely';
import { jsonText } from '../dialect';

/**
 * Reports and the FEC give figures in the base currency, converted at the rate of the day a document was
 * issued, not at today's rate in Paramètres → Devises (which moves and would rewrite past turnover). The rate
 * (units of the document's currency per unit of the base, as in `currencies.rate`) is kept at issue from now on.
 *
 * Documents issued before this migration never recorded theirs: the best evidence left is the rate in force now, so
 * they are filled with it ('1' in the base currency); a currency no longer enabled stays null and falls back to the
 * current rate when read. Also the indexes the report aggregates walk: payments by date (livre des recettes, VAT
 * on receipts), unpaid invoices by maturity (receivables ageing) and deposits by their final invoice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('exchange_rate', 'text').execute();
  const base = sql`coalesce((select ${jsonText(db, sql`s.value`, 'currency_format.currency')} from settings s
    where s.organization_id = documents.organization_id and s.key = 'app'), 'EUR')`;
  await sql`update documents set exchange_rate = case
      when currency = ${base} then '1'
      else (select c.rate from currencies c where c.organization_id = documents.organization_id and c.code = documents.currency)
    end
    where number is not null`.execute(db);
  await db.schema.createIndex('payments_org_date_idx').on('payments').columns(['organization_id', 'date']).execute();
  await db.schema
    .createIndex('documents_org_status_maturity_idx')
    .on('documents')
    .columns(['organization_id', 'status', 'maturity'])
    .execute();
  // The deposits a final invoice deducts, found from the final invoices of a period (VAT report).
  // Partial: only deducted deposits carry one, so the planner sees a small index, not one of NULLs.
  await db.schema
    .createIndex('documents_deducted_by_idx')
    .on('documents')
    .column('deducted_by_id')
    .where(sql.ref('deducted_by_id'), 'is not', null)
    .execute();
}
