// Every authenticated request looks its session up: by the session's key, whatever statistics SQLite holds.
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/schema';
import { findSession } from '../../src/server/db/queries/sessions';
import { onPostgres } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';

describe.skipIf(onPostgres)('the session lookup on SQLite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('finds the session by its key after ANALYZE ran on a table of a few sessions (it scanned them all)', async () => {
    await registered(server.url);
    const raw = new SQLite(server.databaseUrl.slice('file:'.length));
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (event) => {
        if (event.level === 'query') queries.push(event.query);
      },
    });
    try {
      // Statistics taken while the table is small, as a maintenance `ANALYZE` (or `pragma optimize`) would take them.
      raw.exec('ANALYZE');
      expect(await findSession(db, { id: 'no-such-session' })).toBeUndefined();
      const [lookup] = queries;
      expect(queries).toHaveLength(1);
      const plan = raw
        .prepare<unknown[], { detail: string }>(`explain query plan ${lookup?.sql}`)
        .all(...(lookup?.parameters ?? []))
        .map((row) => row.detail);
      expect(plan.some((detail) => /^SEARCH sessions USING .*\(id=\?\)/.test(detail))).toBe(true);
      expect(plan.filter((detail) => /^SCAN /.test(detail))).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
