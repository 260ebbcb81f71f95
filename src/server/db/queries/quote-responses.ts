import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../connection';
import type { QuoteResponsesTable } from '../schema';

export type QuoteResponseRow = Selectable<QuoteResponsesTable>;

/** Records an answer, in the caller's transaction (the estimate's status moves in the same one). */
export async function insertQuoteResponse(db: Db, row: Insertable<QuoteResponsesTable>): Promise<void> {
  await db.insertInto('quote_responses').values(row).execute();
}

/** The latest answer given to an estimate, if any. */
export async function findLatestQuoteResponse(
  db: Db,
  params: { organizationId: number; documentId: number },
): Promise<QuoteResponseRow | undefined> {
  return db
    .selectFrom('quote_responses')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Where an organisation hears of its estimates' answers: its owners' addresses. */
export async function findOwnerEmails(db: Db, params: { organizationId: number }): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.email')
    .where('memberships.organization_id', '=', params.organizationId)
    .where('memberships.role', '=', 'owner')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.email);
}
