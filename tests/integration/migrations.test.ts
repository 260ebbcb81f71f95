import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { createMigrator, migrateToLatest } from '../../src/server/db/migrate';

describe('migrations', () => {
  it('apply in order on a fresh file, and again as a no-op', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    expect(await migrateToLatest(connection.db)).toEqual([
      '0001_init',
      '0002_reference_data',
      '0003_items',
      '0004_search',
      '0005_tags',
      '0006_currencies',
      '0007_documents',
      '0008_line_amounts',
    ]);
    expect(await migrateToLatest(connection.db)).toEqual([]);
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('0002 gives organisations that existed before it the French VAT rates and units', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    await createMigrator(connection.db).migrateTo('0001_init');
    const now = new Date().toISOString();
    await connection.db.insertInto('organizations').values({ name: 'Ancienne SARL', created_at: now, updated_at: now }).execute();
    await migrateToLatest(connection.db);
    const rates = await connection.db.selectFrom('taxes').select(['rate']).orderBy('position').execute();
    expect(rates.map((r) => r.rate)).toEqual(['20', '10', '5.5', '2.1', '0']);
    expect(await connection.db.selectFrom('units').select('name').execute()).toHaveLength(7);
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
