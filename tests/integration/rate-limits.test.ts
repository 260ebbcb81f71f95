import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/server/auth/rate-limit';
import { DatabaseRateStore, delayAfter } from '../../src/server/auth/rate-store';
import { clock } from '../../src/server/clock';
import { type Connection, openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { removeTestEnv, testEnv } from '../helpers/server';

/**
 * The rate limits kept in the database: what the PostgreSQL processes share. The store is portable, so this
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
  const rule = (limit: number, freeHits?: number) => ({ limit, windowMs: 60_000, freeHits });

  it('counts takes from two connections as one window, which ends after its time', async () => {
    const t0 = Date.parse('2026-03-02T10:00:00Z');
    clock.now = () => new Date(t0);
    const a = new RateLimiter('login', rule(3), new DatabaseRateStore(first.db));
    const b = new RateLimiter('login', rule(3), new DatabaseRateStore(second.db));
    expect([await a.take('x'), await b.take('x'), await a.take('x'), await b.take('x')]).toEqual([true, true, true, false]);
    expect(b.limitedBy(await b.window('x'))).toBe(true);
    expect(await b.resetInMs('x')).toBe(60_000);
    expect(await b.window('y')).toBeUndefined();
    await b.release('x');
    expect((await a.window('x'))?.count).toBe(2);
    clock.now = () => new Date(t0 + 60_000);
    expect(await a.window('x')).toBeUndefined();
    await a.release('x'); // an expired window gives nothing back
    expect(await b.take('x')).toBe(true); // a new window, not a fourth hit of the old one
    expect((await a.window('x'))?.count).toBe(1);
    await a.reset('x');
    expect(await b.window('x')).toBeUndefined();
  });

  it('take lets exactly the limit through when many come at once from both connections', async () => {
    const t0 = Date.parse('2026-03-02T11:00:00Z');
    clock.now = () => new Date(t0);
    const limiters = [first, second].map((c) => new RateLimiter('api', rule(5), new DatabaseRateStore(c.db)));
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => (limiters[i % 2] as RateLimiter).take('key')));
    expect(taken.filter(Boolean)).toHaveLength(5);
    expect((await limiters[0]?.window('key'))?.count).toBe(5); // the refused ones were not counted
    // A process whose clock runs behind the one that counted last is not refused for that.
    clock.now = () => new Date(t0 + 10_000);
    expect(await limiters[0]?.take('other')).toBe(true);
    clock.now = () => new Date(t0);
    expect(await limiters[1]?.take('other')).toBe(true);
    clock.now = () => new Date(t0 + 60_000);
    expect(await limiters[1]?.take('key')).toBe(true);
  });

  it('applies the waiting delays in the statement as delayAfter computes them, up to the longest', async () => {
    const t0 = Date.parse('2026-03-02T12:00:00Z');
    const limiters = [first, second].map(
      (c) => new RateLimiter('slow', { limit: 12, windowMs: 900_000, freeHits: 2 }, new DatabaseRateStore(c.db)),
    );
    let now = t0;
    clock.now = () => new Date(now);
    for (let count = 0; count < 12; count++) {
      const limiter = limiters[count % 2] as RateLimiter;
      const delay = delayAfter(count, 2);
      if (delay > 0) {
        now += delay - 1;
        expect(await limiter.take('k')).toBe(false);
        expect(limiter.waitOf(await limiter.window('k'))).toBe(1);
        now += 1;
      }
      expect(await limiter.take('k')).toBe(true);
    }
    now += 60_000;
    expect(await limiters[0]?.take('k')).toBe(false); // the limit, whatever the wait
    expect(limiters[0]?.limitedBy(await limiters[0]?.window('k'))).toBe(true);
  });

  it('prunes expired windows of every name', async () => {
    const t0 = Date.parse('2026-03-03T10:00:00Z');
    clock.now = () => new Date(t0);
    const store = new DatabaseRateStore(first.db);
    await new RateLimiter('old', { limit: 1, windowMs: 1_000 }, store).take('k');
    clock.now = () => new Date(t0 + 5_000);
    // A fresh store prunes on its first write (then once a minute): the expired row goes, the new one stays.
    await new RateLimiter('new', { limit: 1, windowMs: 60_000 }, new DatabaseRateStore(first.db)).take('k');
    const rows = await first.db.selectFrom('rate_limits').select(['name', 'key']).where('reset_at', '>=', t0).execute();
    expect(rows).toEqual([{ name: 'new', key: 'k' }]);
  });
});
