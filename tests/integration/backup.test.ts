import { SECRETS_KEY_FILE, secretBoxFor } from '../../src/server/crypto/secret-box';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testEnv, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { backupDatabase, restoreDatabase } from '../../src/server/db/backup';
import { createApp } from '../../src/server/app';

let server: TestServer;
let user: Awaited<ReturnType<typeof registered>>['user'];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-backup-'));
beforeAll(async () => {
  server = await startTestServer();
  const reg = await registered(server.url);
  user = reg.user;
  const { customerId } = await readyToInvoice(reg.session);
  for (let i = 0; i < 3; i++)
    await issued(reg.session, { type: 'invoice', customer_id: customerId, items: [line(`Prestation ${i}`, 1, 100)] });
  fs.mkdirSync(path.join(server.dataDir, 'receipts', '1'), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, 'receipts', '1', 'ticket.pdf'), '%PDF-1.7 justificatif');
});
afterAll(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Another process writing to the same database as fast as it can, as a busy server would. */
function writerProcess(dbPath: string) {
  const script = `
    const SQLite = require('better-sqlite3');
    const db = new SQLite(${JSON.stringify(dbPath)});
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE IF NOT EXISTS load_test (id INTEGER PRIMARY KEY, payload TEXT)');
    const insert = db.prepare('INSERT INTO load_test (payload) VALUES (?)');
    const burst = () => { for (let i = 0; i < 100; i++) insert.run('x'.repeat(2000)); setImmediate(burst); };
    process.send('ready');
    burst();`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], cwd: process.cwd() });
}

describe('npm run backup / npm run restore', () => {
  it('makes a verified copy while another process keeps writing, then restores it where a server starts on it', async () => {
    secretBoxFor({ secretsKey: undefined, dataDir: server.dataDir }).seal('un secret'); // creates DATA_DIR/secrets.key
    const writer = writerProcess(server.dbPath);
    await new Promise((resolve) => writer.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    let report: ReturnType<typeof backupDatabase>;
    try {
      report = backupDatabase({ databasePath: server.dbPath, dataDir: server.dataDir, backupsDir: path.join(work, 'sauvegardes') });
    } finally {
      writer.kill();
    }
    expect(report.counts.documents).toBe(3);
    expect(report.counts.organizations).toBe(1);
    expect(report.bytes).toBeGreaterThan(0);
    expect(report.files).toBeGreaterThanOrEqual(1);
    // The key of the stored secrets is backed up apart, never beside the database.
    expect(fs.existsSync(path.join(report.folder, 'fichiers', SECRETS_KEY_FILE))).toBe(false);
    expect(fs.readdirSync(path.join(work, 'sauvegardes'))).toEqual([path.basename(report.folder)]); // no partial left
    const copy = new SQLite(report.database, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();

    // Restored in place of another (new) installation: the server starts on it, the user logs in, documents are there.
    const target = testEnv();
    fs.writeFileSync(target.dbPath, fs.readFileSync(report.database)); // an existing database to move aside
    const restored = restoreDatabase({ backup: report.folder, databasePath: target.dbPath, dataDir: target.dataDir });
    expect(restored.movedAside).toMatch(/\.avant-restauration-/);
    expect(fs.readFileSync(path.join(target.dataDir, 'receipts', '1', 'ticket.pdf'), 'utf8')).toBe('%PDF-1.7 justificatif');
    const app = await createApp(target.env, { archiveOnIssue: false });
    try {
      const url = await app.listen();
      const session = new Session(url);
      expect((await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password })).status).toBe(200);
      expect((await session.rest('GET', '/api/documents?per_page=1')).body.total).toBe(3);
    } finally {
      await app.close();
      fs.rmSync(target.dataDir, { recursive: true, force: true });
    }
  });

  it('npm run backup copies a data folder whose first entry is a loose file, and restore puts every file back', async () => {
    // Listed in name order, the loose file comes before any folder: the copy's folder must exist before it.
    const dataDir = path.join(work, 'donnees-en-vrac');
    fs.mkdirSync(path.join(dataDir, 'logos'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, '00-lisez-moi.txt'), 'notes de l’administrateur');
    fs.writeFileSync(path.join(dataDir, 'logos', 'logo.png'), 'logo');
    const backupsDir = path.join(work, 'sauvegardes-en-vrac');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', backupsDir], {
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: `file:${server.dbPath}`, DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('2 fichier(s) de données');
    const [folder] = fs.readdirSync(backupsDir);
    expect(folder).toMatch(/^facturier-\d{8}-\d{6}$/);

    const target = testEnv();
    const restored = restoreDatabase({
      backup: path.join(backupsDir, String(folder)),
      databasePath: target.dbPath,
      dataDir: target.dataDir,
    });
    expect(restored.files).toBe(2);
    expect(fs.readFileSync(path.join(target.dataDir, '00-lisez-moi.txt'), 'utf8')).toBe('notes de l’administrateur');
    expect(fs.readFileSync(path.join(target.dataDir, 'logos', 'logo.png'), 'utf8')).toBe('logo');
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('restore refuses a file that is not a Facturier database, and moves nothing', () => {
    const target = testEnv();
    fs.writeFileSync(target.dbPath, 'ma base actuelle');
    const foreign = path.join(work, 'autre.db');
    const other = new SQLite(foreign);
    other.exec('CREATE TABLE clients (id INTEGER PRIMARY KEY)');
    other.close();
    const text = path.join(work, 'notes.db');
    fs.writeFileSync(text, 'pas une base');
    const cases: [string, string][] = [
      [foreign, 'une base d’une autre application'],
      [text, 'pas une base SQLite'],
      [path.join(work, 'absente'), 'introuvable'],
    ];
    for (const [backup, reason] of cases) {
      expect(() => restoreDatabase({ backup, databasePath: target.dbPath, dataDir: target.dataDir })).toThrow(
        `n’est pas une sauvegarde Facturier : ${reason}`,
      );
    }
    expect(fs.readFileSync(target.dbPath, 'utf8')).toBe('ma base actuelle');
    fs.rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('the server refuses to start on a 0-byte or a foreign database file, saying so in French', async () => {
    const empty = testEnv();
    fs.writeFileSync(empty.dbPath, '');
    await expect(createApp(empty.env)).rejects.toThrow('est un fichier vide (0 octet)');
    expect(fs.statSync(empty.dbPath).size).toBe(0); // left as found

    const foreign = testEnv();
    fs.rmSync(foreign.dbPath); // a file of another app, not the migrated copy test servers start from
    const other = new SQLite(foreign.dbPath);
    other.exec('CREATE TABLE clients (id INTEGER PRIMARY KEY)');
    other.close();
    await expect(createApp(foreign.env)).rejects.toThrow('n’est pas une base Facturier');

    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: '0', NODE_ENV: 'test', DATABASE_URL: `file:${empty.dbPath}`, DATA_DIR: empty.dataDir },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('est un fichier vide (0 octet) : elle n’est pas ouverte comme une base neuve');
    for (const env of [empty, foreign]) fs.rmSync(env.dataDir, { recursive: true, force: true });
  });
});
