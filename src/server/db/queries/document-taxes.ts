import type { Db } from '../connection';
import { toStoredUnits } from '../../../shared/money';
import { json } from './document-mapping';
import { taxGroupSchema } from '../../../shared/schemas/document-model';
import { z } from 'zod';

const BATCH = 1000;

/**
 * Writes the `document_taxes` rows (migration 0038) of issued invoices and credit notes that have none yet, from their
 * stored tax groups: `documentId` for the one just issued (in its issuing transaction), or every such document of the
 * organisation (the bench seeds documents straight into the database and fills them with this, as the issue would).
 */
export async function writeDocumentTaxes(db: Db, params: { organizationId: number; documentId?: number }): Promise<void> {
  let after = 0;
  for (;;) {
    let query = db
      .selectFrom('documents as d')
      .select(['d.id', 'd.date', 'd.type', 'd.has_services', 'd.currency', 'd.exchange_rate', 'd.tax_groups'])
      .where('d.organization_id', '=', params.organizationId)
      .where('d.number', 'is not', null)
      .where('d.type', 'in', ['invoice', 'credit'])
      .where('d.id', '>', after)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('document_taxes as t').select('t.document_id').whereRef('t.document_id', '=', 'd.id'))),
      )
      .orderBy('d.id')
      .limit(BATCH);
    if (params.documentId !== undefined) query = query.where('d.id', '=', params.documentId);
    const documents = await query.execute();
    if (documents.length === 0) return;
    after = documents[documents.length - 1]?.id ?? after;
    const rows = documents.flatMap((d) =>
      json(z.array(taxGroupSchema), d.tax_groups).map((t, position) => ({
        document_id: d.id,
        position,
        organization_id: params.organizationId,
        date: d.date,
        type: d.type as 'invoice' | 'credit',
        has_services: d.has_services,
        currency: d.currency,
        exchange_rate: d.exchange_rate,
        rate: String(t.rate),
        base: toStoredUnits(t.taxable_amount),
        amount: toStoredUnits(t.amount),
      })),
    );
    // 500 rows of 11 values per statement: under SQLite's limit of bound parameters.
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('document_taxes')
        .values(rows.slice(i, i + 500))
        .execute();
    if (documents.length < BATCH) return;
  }
}
