import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchPostgresUrl, freshPostgresDatabase, planLines, postgresCopyOf, postgresVerdict } from '../../scripts/bench/postgres';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { databaseUrl, dropTestDatabase, psql, testDatabaseUrl } from '../helpers/postgres';

/**
 * The benches' PostgreSQL side (scripts/bench/postgres.ts) — the verdict printed beside each endpoint must
 * tell a table walk from an index read, and the bench's own database must be created and dropped. Figures are not
 * asserted (they depend on the machine). PostgreSQL run only.
 */
describe('the benches’ PostgreSQL target', () => {
  it('refuses, in French, a BENCH_DATABASE_URL that is not a postgres:// address', () => {
    const before = process.env.BENCH_DATABASE_URL;
    try {
      process.env.BENCH_DATABASE_URL = 'file:./bench.db';
      expect(() => benchPostgresUrl()).toThrow('--pg attend une adresse postgres://…, pas « file:./bench.db »');
      process.env.BENCH_DATABASE_URL = '';
      expect(benchPostgresUrl()).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.BENCH_DATABASE_URL;
      else process.env.BENCH_DATABASE_URL = before;
    }
  });
});

describe.skipIf(!testDatabaseUrl())('PostgreSQL plan verdicts and the bench database', () => {
  const base = testDatabaseUrl() ?? '';
  // Collected on the SQLite run too (skipIf skips the tests, not this body): no URL to build there.
  const url = base ? databaseUrl(base, `facturier_test_${process.pid}_${randomBytes(4).toString('hex')}`) : '';
  // biome-ignore lint/suspicious/noExplicitAny: two throwaway tables, no schema type.
  let db: Kysely<any>;

  beforeAll(async () => {
    psql(base, `CREATE DATABASE ${new URL(url).pathname.slice(1)} TEMPLATE template0`);
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) });
    for (const statement of [
      'create table big (id bigint primary key, note text)',
      "insert into big select n, 'note ' || n from generate_series(1, 5000) n",
      'create table small (id bigint primary key, note text)',
      "insert into small select n, 'note ' || n from generate_series(1, 10) n",
      'analyze',
    ])
      await db.executeQuery(CompiledQuery.raw(statement));
  });

  afterAll(async () => {
    await db?.destroy();
    dropTestDatabase(url);
  });

  it('says "index" for a read through the primary key and a walk of a small table, and names a large walk or sort', async () => {
    const byId = CompiledQuery.raw('select note from big where id = $1', [42]);
    const small = CompiledQuery.raw('select note from small where note like $1', ['%3%']);
    expect(await postgresVerdict(db, [byId, small])).toBe('index');
    const walk = CompiledQuery.raw('select count(*) from big where note like $1', ['%7%']);
    expect(await postgresVerdict(db, [byId, walk])).toBe('Seq Scan big (5 000 rows)');
    const sorted = CompiledQuery.raw('select id from big order by note limit 10 offset 4000');
    expect(await postgresVerdict(db, [sorted])).toBe('Sort of ~5 000 rows; Seq Scan big (5 000 rows)');
    expect((await planLines(db, byId)).join('\n')).toMatch(/^- Index Scan big \(big_pkey\), ~1 rows$/);
  });

  it('creates the bench’s own database on the server and drops it', async () => {
    const bench = await freshPostgresDatabase(base, 'test');
    const name = new URL(bench.url).pathname.slice(1);
    expect(name).toBe(`facturier_bench_test_${process.pid}`);
    const exists = () => psql(base, `select count(*) from pg_database where datname = '${name}'`).trim();
    expect(exists()).toBe('1');
    await bench.drop();
    expect(exists()).toBe('0');
  });

  it('with BENCH_PG_KEEP=1 copies once, reuses the copy while the SQLite file is the same, and copies again after it changed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-keep-'));
    const file = path.join(dir, 'scale.db');
    const source = openDatabase(file);
    await migrateToLatest(source.db);
    await source.close();
    const purpose = `test_${process.pid}`;
    const name = `facturier_bench_kept_${purpose}`;
    const before = process.env.BENCH_PG_KEEP;
    process.env.BENCH_PG_KEEP = '1';
    try {
      const first = await postgresCopyOf(base, purpose, file);
      expect(new URL(first.target.url).pathname).toBe(`/${name}`);
      expect(first.copied?.documents).toBe(0);
      await first.target.drop();
      const second = await postgresCopyOf(base, purpose, file);
      expect(second.copied).toBeNull();
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
      const third = await postgresCopyOf(base, purpose, file);
      expect(third.copied).not.toBeNull();
    } finally {
      if (before === undefined) delete process.env.BENCH_PG_KEEP;
      else process.env.BENCH_PG_KEEP = before;
      psql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
