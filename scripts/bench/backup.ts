import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { backupDatabase } from '../../src/server/db/backup';

const TARGET_MB = Number(process.env.BENCH_BACKUP_MB ?? 300);

/**
 * `npm run bench -- backup`: `npm run backup`'s copy of a ~300 MB database while another process writes to it
 * without pause (sqlite3's `.backup` never finished in that case). Prints the time and what was verified.
 */
export async function benchBackup(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-backup-'));
  const dbPath = path.join(dir, 'facturier.db');
  try {
    const connection = openDatabase(dbPath);
    await migrateToLatest(connection.db);
    await connection.close();
    const sqlite = new SQLite(dbPath);
    sqlite.exec('CREATE TABLE load_test (id INTEGER PRIMARY KEY, payload BLOB)');
    const insert = sqlite.prepare('INSERT INTO load_test (payload) VALUES (randomblob(4000))');
    const rows = Math.ceil((TARGET_MB * 1024 * 1024) / 4100);
    sqlite.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run();
    })();
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.close();
    const size = fs.statSync(dbPath).size;

    const script = `
      const SQLite = require('better-sqlite3');
      const db = new SQLite(${JSON.stringify(dbPath)});
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      const insert = db.prepare('INSERT INTO load_test (payload) VALUES (randomblob(2000))');
      let n = 0;
      process.on('message', () => { process.send(n); process.exit(0); });
      process.send('ready');
      // In bursts, yielding between them so that the stop message is heard.
      const burst = () => { for (let i = 0; i < 200; i++) { insert.run(); n++; } setImmediate(burst); };
      burst();`;
    const writer = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise((resolve) => writer.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const report = backupDatabase({ databasePath: dbPath, dataDir: dir, backupsDir: path.join(dir, 'backups') });
    const written = await new Promise<number>((resolve) => {
      writer.once('message', (n) => resolve(Number(n)));
      writer.send('stop');
    });
    console.log(
      `backup: ${(size / 1024 / 1024).toFixed(0)} Mo sous écriture continue (${written} lignes écrites par un autre processus pendant la copie) → ` +
        `copie vérifiée (integrity_check ok) de ${(report.bytes / 1024 / 1024).toFixed(0)} Mo en ${(report.ms / 1000).toFixed(1)} s`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
