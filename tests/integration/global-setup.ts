import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { databaseUrl, psql, TEMPLATE_DATABASE, testDatabaseUrl } from '../helpers/postgres';
import { provideSqliteTemplate } from '../helpers/template-database';

/** The migrated template every test database is copied from: a SQLite file, or on the PostgreSQL run a database. */
export default async function setup(project: TestProject) {
  const base = testDatabaseUrl();
  if (!base) return provideSqliteTemplate((key, value) => project.provide(key, value));
  psql(base, `DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  psql(base, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const connection = openDatabase(databaseUrl(base, TEMPLATE_DATABASE));
  try {
    await migrateToLatest(connection.db);
  } finally {
    await connection.close(); // a template must have no connection when it is copied
  }
  return () => {
    const left = psql(base, "SELECT datname FROM pg_database WHERE datname LIKE 'facturier\\_test\\_%'").split('\n').filter(Boolean);
    for (const name of left) psql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}
