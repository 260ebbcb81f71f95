import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * The PostgreSQL run of the integration suite (scripts/test.mjs, .ci/run): TEST_DATABASE_URL names a throwaway server.
 * Each test server gets its own database, created from a template that global-setup.ts migrated once for the run, so
 * that a file pays a file copy rather than 37 migrations. psql is used because the helpers that need a database are
 * synchronous (testEnv) and PostgreSQL's client tools come with the server.
 */
export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

export const TEMPLATE_DATABASE = 'facturier_template';

/** The URL of another database on the same server. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export function psql(base: string, statement: string): string {
  return execFileSync('psql', [databaseUrl(base, 'postgres'), '-v', 'ON_ERROR_STOP=1', '-Atqc', statement], { encoding: 'utf8' });
}

/** A fresh, migrated database for one test server; its URL. */
export function createTestDatabase(base: string): string {
  const name = `facturier_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  psql(base, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  return databaseUrl(base, name);
}

/** A fresh, empty database (no migration), for the tests of migrations themselves; its URL. */
export function createEmptyTestDatabase(base: string): string {
  const name = `facturier_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  psql(base, `CREATE DATABASE ${name} TEMPLATE template0`);
  return databaseUrl(base, name);
}

export function dropTestDatabase(url: string): void {
  const name = new URL(url).pathname.slice(1);
  if (!/^facturier_test_\w+$/.test(name)) throw new Error(`not a test database: ${name}`);
  psql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A copy of a test server's database, taken while the server runs (pg_dump into a new database: CREATE DATABASE …
 * TEMPLATE needs the source without connections); its URL, to drop with dropTestDatabase. SQLite's `vacuum into`.
 */
export function copyTestDatabase(url: string): string {
  const copy = databaseUrl(url, `facturier_test_${process.pid}_${randomBytes(4).toString('hex')}`);
  psql(url, `CREATE DATABASE ${new URL(copy).pathname.slice(1)} TEMPLATE template0`);
  const dump = execFileSync('pg_dump', ['--no-owner', url], { maxBuffer: 512 * 1024 * 1024 });
  execFileSync('psql', [copy, '-q', '-v', 'ON_ERROR_STOP=1'], { input: dump, stdio: ['pipe', 'ignore', 'pipe'] });
  return copy;
}
