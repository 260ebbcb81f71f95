import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPostgres, DUMP_FILE, findPostgresTool, restorePostgres } from '../../src/server/db/backup-postgres';
import { openDatabase } from '../../src/server/db/connection';
import { listLoggedOrganizations } from '../../src/server/db/queries/audit';
import { verifyAudit } from '../../src/server/services/audit';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { createTestDatabase, databaseUrl, dropTestDatabase, psql, testDatabaseUrl } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/** An empty database on the test server (not from the migrated template): what `createdb` gives an operator. */
function emptyDatabase(base: string): string {
  const name = `facturier_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  psql(base, `CREATE DATABASE ${name} TEMPLATE template0`);
  return databaseUrl(base, name);
}

describe('findPostgresTool', () => {
  it('says in French what to install when pg_dump is nowhere', () => {
    const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-no-pg-'));
    try {
      expect(() => findPostgresTool('pg_dump', { pathVariable: nowhere, versionsDir: path.join(nowhere, 'postgresql') })).toThrow(
        /^pg_dump est introuvable .*apt-get install -y postgresql-client/,
      );
    } finally {
      fs.rmSync(nowhere, { recursive: true, force: true });
    }
  });

  it('finds it under a Debian version folder, the newest first, when PATH has none', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-pg-versions-'));
    try {
      for (const version of ['13', '16']) {
        fs.mkdirSync(path.join(root, version, 'bin'), { recursive: true });
        fs.writeFileSync(path.join(root, version, 'bin', 'pg_restore'), '#!/bin/sh\n', { mode: 0o755 });
      }
      expect(findPostgresTool('pg_restore', { pathVariable: '', versionsDir: root })).toBe(path.join(root, '16', 'bin', 'pg_restore'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

const base = testDatabaseUrl();

describe.skipIf(!base)('npm run backup / npm run restore on PostgreSQL', () => {
  let server: TestServer;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-pg-backup-'));
  const made: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    for (let i = 0; i < 3; i++)
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line(`Prestation ${i}`, 1, 100)] });
    fs.mkdirSync(path.join(server.dataDir, 'receipts', '1'), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, 'receipts', '1', 'ticket.pdf'), '%PDF-1.7 justificatif');
    // A loose file listed before every folder: the copy's folder must be made before it is copied.
    fs.writeFileSync(path.join(server.dataDir, '00-lisez-moi.txt'), 'notes de l’administrateur');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    for (const url of made) dropTestDatabase(url);
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('dumps a database with documents, restores it into an empty one: same counts, files back, audit chain verified', async () => {
    const report = await backupPostgres({
      databaseUrl: server.databaseUrl,
      dataDir: server.dataDir,
      backupsDir: path.join(work, 'sauvegardes'),
    });
    expect(report.counts.documents).toBe(3);
    expect(report.counts.organizations).toBe(1);
    expect(report.counts.audit_log).toBeGreaterThanOrEqual(3);
    expect(report.database).toBe(path.join(report.folder, DUMP_FILE));
    expect(report.files).toBeGreaterThanOrEqual(1); // the receipt, and the mails of the file outbox
    expect(fs.readdirSync(path.join(work, 'sauvegardes'))).toEqual([path.basename(report.folder)]); // no partial left

    const target = emptyDatabase(server.databaseUrl);
    made.push(target);
    const dataDir = path.join(work, 'restauree');
    const restored = await restorePostgres({ backup: report.folder, databaseUrl: target, dataDir });
    expect(restored.counts).toEqual(report.counts);
    expect(restored.files).toBe(report.files);
    expect(fs.readFileSync(path.join(dataDir, 'receipts', '1', 'ticket.pdf'), 'utf8')).toBe('%PDF-1.7 justificatif');
    expect(fs.readFileSync(path.join(dataDir, '00-lisez-moi.txt'), 'utf8')).toBe('notes de l’administrateur');

    const connection = openDatabase(target);
    try {
      const organizations = await listLoggedOrganizations(connection.db);
      expect(organizations).toHaveLength(1);
      for (const organization of organizations) {
        const verified = await verifyAudit(connection.db, organization.id, dataDir);
        expect(verified).toMatchObject({ ok: true, entries: report.counts.audit_log });
      }
      // Analysed at once: the planner has the restored columns' statistics (none before a table is analysed).
      const { rows: stats } = await sql<{ n: number }>`select count(*) as n from pg_stats where tablename = 'documents'`.execute(
        connection.db,
      );
      expect(Number(stats[0]?.n)).toBeGreaterThan(0);
      // The identities follow the restored ids: the next document gets a new id, not a clash.
      const numbers = await connection.db.selectFrom('documents').select('number').orderBy('number').execute();
      expect(numbers.map((n) => n.number)).toEqual(['F2026-0001', 'F2026-0002', 'F2026-0003']);
    } finally {
      await connection.close();
    }

    // A database that holds tables is refused in French, unless --force replaces its content.
    const refused = restorePostgres({ backup: report.folder, databaseUrl: target, dataDir });
    await expect(refused).rejects.toThrow(
      /^La base cible n’est pas vide \(\d+ tables\) : la restauration se fait dans une base vide\. Créez-en une \(createdb\) ou ajoutez --force pour remplacer son contenu\.$/,
    );
    const other = createTestDatabase(server.databaseUrl); // migrated, with no rows
    made.push(other);
    const forced = await restorePostgres({ backup: report.folder, databaseUrl: other, dataDir: path.join(work, 'forcee'), force: true });
    expect(forced.counts).toEqual(report.counts);
  }, 120_000);

  it('refuses a file that is not a dump, before touching the target', async () => {
    const fake = path.join(work, 'faux.dump');
    fs.writeFileSync(fake, 'pas une sauvegarde');
    const target = emptyDatabase(server.databaseUrl);
    made.push(target);
    await expect(restorePostgres({ backup: fake, databaseUrl: target, dataDir: path.join(work, 'x') })).rejects.toThrow(
      /faux\.dump n’est pas une sauvegarde PostgreSQL lisible/,
    );
    await expect(restorePostgres({ backup: path.join(work, 'absente'), databaseUrl: target, dataDir: work })).rejects.toThrow(
      /absente\/facturier\.dump est introuvable|absente est introuvable/,
    );
  });
});
