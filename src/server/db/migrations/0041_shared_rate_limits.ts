import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * Several processes on one PostgreSQL database:
 * - `rate_limits`: the fixed-window counters (auth/rate-limit.ts) that every process must share, or a brute force
 *   spread over N processes would get N times the tries. One row per limiter and key; `reset_at` and `last_at` are
 *   epoch milliseconds. Created on SQLite too, so both schemas stay the same (`npm run db:copy`), though SQLite's
 *   one process keeps its counters in memory and never writes it.
 * - PostgreSQL's search table filters every query by organisation (db/queries/search.ts) and had only its GIN
 *   indexes: a btree on (organization_id, kind) narrows to one organisation's entries first. SQLite's FTS5 table
 *   is keyed by rowid ranges per organisation (migration 0040) and takes no index.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pkey', ['name', 'key'])
    .execute();
  // Expired windows are deleted by reset time (RateLimitStore's pruning).
  await db.schema.createIndex('rate_limits_reset_at').on('rate_limits').column('reset_at').execute();
  if (isPostgres(db)) await sql`create index search_index_organization on search_index (organization_id, kind)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) await sql`drop index search_index_organization`.execute(db);
  await db.schema.dropTable('rate_limits').execute();
}
