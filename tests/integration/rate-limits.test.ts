import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRateStore, RateLimiter } from '../../src/server/auth/rate-limit';
import { clock } from '../../src/server/clock';
import { type Connection, openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { removeTestEnv, testEnv } from '../helpers/server';

/**
 * The rate limits kept in the database (issue 21): what the PostgreSQL processes share. The store is portable, so this
 * file runs on SQLite too (where the app itself keeps its limits in memory); two connections stand for two processes.
 */
let setup: ReturnType<typeof testEnv>;
let first: Connection;
let second: Connection;
beforeAll(async () => {
  setup = testEnv();
  first = openDatabase(setup.env.databasePath);
  await migrateToLatest(first.db);
  second = openDatabase(setup.env.databasePath);
});
afterAll(async () => {
  clock.now = () => new Date();
  await first.close();
  await second.close();
  removeTestEnv(setup.env, setup.dataDir);
});

describe('DatabaseRateStore', () => {
  it('counts hits from two connections as one window, which ends after its time', async () => {
    const t0 = Date.parse('2026-03-02T10:00:00Z');
    clock.now = () => new Date(t0);
    const a = new RateLimiter('login', 3, 60_000, new DatabaseRateStore(first.db));
    const b = new RateLimiter('login', 3, 60_000, new DatabaseRateStore(second.db));
    await a.hit('x');
    await b.hit('x');
    expect(await a.isLimited('x')).toBe(false);
    await a.hit('x');
    expect(await b.isLimited('x')).toBe(true);
    expect(await b.resetInMs('x')).toBe(60_000);
    expect(await b.isLimited('y')).toBe(false);
    clock.now = () => new Date(t0 + 1_000);
    expect(b.waitOf(await b.window('x'), 2)).toBe(1_000); // 2 s after the last hit, which came at t0
    clock.now = () => new Date(t0 + 60_000);
    expect(await a.isLimited('x')).toBe(false);
    await b.hit('x'); // a new window, not a fourth hit of the old one
    expect((await a.window('x'))?.count).toBe(1);
    await a.reset('x');
    expect(await b.window('x')).toBeUndefined();
  });

  it('take lets exactly the limit through when many come at once from both connections', async () => {
    const t0 = Date.parse('2026-03-02T11:00:00Z');
    clock.now = () => new Date(t0);
    const limiters = [first, second].map((c) => new RateLimiter('api', 5, 60_000, new DatabaseRateStore(c.db)));
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => (limiters[i % 2] as RateLimiter).take('key')));
    expect(taken.filter(Boolean)).toHaveLength(5);
    expect((await limiters[0]?.window('key'))?.count).toBe(5); // the refused ones were not counted
    clock.now = () => new Date(t0 + 60_000);
    expect(await limiters[1]?.take('key')).toBe(true);
  });

  it('prunes expired windows of every name', async () => {
    const t0 = Date.parse('2026-03-03T10:00:00Z');
    clock.now = () => new Date(t0);
    const store = new DatabaseRateStore(first.db);
    await new RateLimiter('old', 1, 1_000, store).hit('k');
    clock.now = () => new Date(t0 + 5_000);
    // A fresh store prunes on its first write (then once a minute): the expired row goes, the new one stays.
    await new RateLimiter('new', 1, 60_000, new DatabaseRateStore(first.db)).hit('k');
    const rows = await first.db.selectFrom('rate_limits').select(['name', 'key']).where('reset_at', '>=', t0).execute();
    expect(rows).toEqual([{ name: 'new', key: 'k' }]);
  });
});
