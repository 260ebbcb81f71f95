import { sql } from 'kysely';
import type { Db } from '../connection';
import { countedInTurnover } from './reports';

const signed = (column: string) => sql<number>`sum(case when type = 'credit' then -(${sql.raw(column)}) else ${sql.raw(column)} end)`;

/**
 * Adds issued documents to the turnover of their day (`turnover_days`, migration 0038), if turnover counts them
 * (reports.ts countedInTurnover): `documentId` for the one just issued, in its issuing transaction; without it, every
 * document of the organisation, for a database whose days are still empty (the bench seeds documents straight into
 * it). Each document is added once, when issued: an issued invoice or credit note never changes nor goes.
 */
export async function addToTurnoverDays(db: Db, params: { organizationId: number; documentId?: number }): Promise<void> {
  let documents = countedInTurnover(db, params.organizationId);
  if (params.documentId !== undefined) documents = documents.where('documents.id', '=', params.documentId);
  const rate = sql<string>`coalesce(exchange_rate, '')`;
  await db
    .insertInto('turnover_days')
    .columns(['organization_id', 'date', 'currency', 'exchange_rate', 'count', 'net', 'tax', 'total'])
    .expression(
      documents
        .select([
          'organization_id',
          'date',
          'currency',
          rate.as('exchange_rate'),
          sql<number>`count(*)`.as('count'),
          signed('total - tax').as('net'),
          signed('tax').as('tax'),
          signed('total').as('total'),
        ])
        .groupBy(['organization_id', 'date', 'currency', rate]),
    )
    .onConflict((conflict) =>
      conflict.columns(['organization_id', 'date', 'currency', 'exchange_rate']).doUpdateSet((eb) => ({
        count: eb('turnover_days.count', '+', eb.ref('excluded.count')),
        net: eb('turnover_days.net', '+', eb.ref('excluded.net')),
        tax: eb('turnover_days.tax', '+', eb.ref('excluded.tax')),
        total: eb('turnover_days.total', '+', eb.ref('excluded.total')),
      })),
    )
    .execute();
}
