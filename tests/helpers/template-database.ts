import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file migrated once for the run, which each test server's database starts as a copy of. */
    sqliteTemplate: string;
  }
}

/**
 * For a suite's global setup: migrates one SQLite file for the whole run, so that each test server's database is a
 * file copy rather than every migration again (about a second of CPU per server, over a hundred servers a run).
 * Returns the teardown that removes it.
 */
export async function provideSqliteTemplate(provide: (key: 'sqliteTemplate', value: string) => void): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-template-'));
  const file = path.join(dir, 'template.db');
  const connection = openDatabase(file);
  try {
    await migrateToLatest(connection.db);
  } finally {
    await connection.close(); // checkpoints the WAL into the file: the copy is the whole database
  }
  provide('sqliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** The migrated template of this run, when the suite's global setup made one. */
export function sqliteTemplate(): string | undefined {
  try {
    return inject('sqliteTemplate') || undefined;
  } catch {
    return undefined; // outside a Vitest worker
  }
}
