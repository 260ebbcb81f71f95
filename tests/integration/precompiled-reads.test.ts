import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from '../../src/server/db/queries/sessions';
import { hashToken } from '../../src/server/auth/tokens';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { onPostgres } from '../helpers/database';

// SQLite's precompiled reads (the session lookup) run at once on the connection unless a transaction is open on it
// (db/precompiled.ts): a lookup made while another request's transaction is under way never sees its uncommitted
// writes, whether that transaction then commits or rolls back. On PostgreSQL a read runs on another pooled connection,
// which sees the committed rows at once: nothing to wait for there.
describe.skipIf(onPostgres)('precompiled reads beside an open transaction', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('waits for the transaction: a session it deletes and then rolls back is still found, one it deletes and commits is gone', async () => {
    const { session } = await registered(server.url);
    const id = hashToken(String(session.cookie).replace(/^session=/, ''));
    const { db } = server.app.connection;
    expect((await findSession(db, { id }))?.id).toBe(id);

    for (const outcome of ['rollback', 'commit'] as const) {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let deleted: () => void = () => {};
      const deletedYet = new Promise<void>((resolve) => (deleted = resolve));
      const transaction = db
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('sessions').where('id', '=', id).execute();
          deleted();
          await held;
          if (outcome === 'rollback') throw new Error('rolled back');
        })
        .catch(() => {});
      await deletedYet;
      let found: string | undefined | null = null;
      const lookup = findSession(db, { id }).then((row) => (found = row?.id));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(found).toBeNull(); // still waiting: the uncommitted delete is not read
      release();
      await Promise.all([transaction, lookup]);
      expect(found).toBe(outcome === 'rollback' ? id : undefined);
    }
  });
});
