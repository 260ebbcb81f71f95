import { sql } from 'kysely';
import type { MigrationDb } from './helpers';

/**
 * CGI art. 242 nonies A: a number belongs to one document of the organisation, whatever its type (until now only
 * within a type). A database written before may already hold the same number on two types: the first holder of each
 * number stays in the index and the later ones are named in its WHERE clause, so the legacy rows stay untouched
 * (issued documents are never renumbered) while no new number can ever repeat one of them.
 */
export async function up(db: MigrationDb): Promise<void> {
  const rows = await sql<{ id: unknown }>`
    SELECT d.id FROM documents d
    WHERE d.number IS NOT NULL
      AND EXISTS (SELECT 1 FROM documents o
                  WHERE o.organization_id = d.organization_id AND o.number = d.number AND o.id < d.id)`.execute(db);
  const legacy = rows.rows.map((r) => Number(r.id)).filter((id) => Number.isSafeInteger(id));
  // Literal ids (checked integers): SQLite allows no bound parameter in an index's WHERE clause.
  const exempt = legacy.length > 0 ? sql.raw(` AND id NOT IN (${legacy.join(', ')})`) : sql.raw('');
  await sql`CREATE UNIQUE INDEX documents_org_number_unique ON documents (organization_id, number) WHERE number IS NOT NULL${exempt}`.execute(
    db,
  );
}
