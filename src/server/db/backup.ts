import { SECRETS_KEY_FILE } from '../crypto/secret-box';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DatabaseFileError, inspectDatabaseFile } from './database-file';

/** The tables a verification counts: what an operator checks against what they expect. */
export const COUNTED = ['organizations', 'users', 'customers', 'items', 'documents', 'payments', 'expenses', 'audit_log'] as const;

export interface BackupReport {
  folder: string;
  database: string;
  bytes: number;
  ms: number;
  counts: Record<string, number>;
  files: number;
}

/** The database's own files, never copied as "data files". */
const databaseFiles = (databasePath: string) => new Set(['', '-wal', '-shm', '-journal'].map((s) => path.resolve(`${databasePath}${s}`)));

/**
 * Checks a copy is a whole Facturier database: SQLite's integrity check, the tables of the first migration, the rows
 * counted. Throws a French DatabaseFileError otherwise.
 */
export function verifyDatabaseCopy(file: string): Record<string, number> {
  const { kind } = inspectDatabaseFile(file);
  if (kind !== 'facturier') {
    const why = {
      missing: 'introuvable',
      empty: 'vide (0 octet)',
      'not-sqlite': 'pas une base SQLite',
      foreign: 'une base d’une autre application',
      blank: 'une base sans tables',
    }[kind];
    throw new DatabaseFileError(`${file} n’est pas une sauvegarde Facturier : ${why}`);
  }
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new DatabaseFileError(`${file} est abîmée (contrôle d’intégrité SQLite : ${String(integrity)})`);
    const tables = new Set(
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => (r as { name: string }).name),
    );
    const counts: Record<string, number> = {};
    for (const table of COUNTED) {
      if (tables.has(table)) counts[table] = (sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    }
    return counts;
  } finally {
    sqlite.close();
  }
}

/**
 * Copies the data folder's files (kept PDFs, receipts, logos…) but the database itself and earlier backups. The target
 * folder is made first: a loose file may come before any folder in the listing, and nothing else would create it.
 */
export function copyDataFiles(from: string, to: string, skip: Set<string>): number {
  let copied = 0;
  if (!fs.existsSync(from)) return 0;
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.resolve(from, entry.name);
    if (skip.has(source) || entry.name.includes('.avant-restauration-')) continue;
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copied += copyDataFiles(source, target, skip);
    } else if (entry.isFile()) {
      fs.copyFileSync(source, target);
      copied += 1;
    }
  }
  return copied;
}

export const stamp = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/**
 * `npm run backup`: a consistent copy while the app keeps writing. `VACUUM INTO` reads one snapshot of the WAL
 * database and writes a compact copy — unlike the online-backup API (sqlite3's `.backup`), which restarts each time
 * another connection writes, and under steady writes never finished. The copy is written under a
 * temporary name, verified, then renamed: a failed backup never leaves a file that looks like one.
 */
export function backupDatabase(opts: { databasePath: string; dataDir: string; backupsDir: string; now?: Date }): BackupReport {
  const started = performance.now();
  const { kind } = inspectDatabaseFile(opts.databasePath);
  if (kind !== 'facturier') throw new DatabaseFileError(`Rien à sauvegarder : ${opts.databasePath} n’est pas une base Facturier (${kind})`);
  const folder = path.join(opts.backupsDir, `facturier-${stamp(opts.now ?? new Date())}`);
  if (fs.existsSync(folder)) throw new DatabaseFileError(`La sauvegarde ${folder} existe déjà : relancez dans une seconde`);
  const partial = `${folder}.partiel`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  try {
    const database = path.join(partial, 'facturier.db');
    const source = new SQLite(opts.databasePath, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 10000');
      source.prepare('VACUUM INTO ?').run(database);
    } finally {
      source.close();
    }
    const counts = verifyDatabaseCopy(database);
    const skip = databaseFiles(opts.databasePath);
    skip.add(path.resolve(opts.backupsDir));
    // The key of the stored secrets stays out: a backup that carried it would carry the secrets readable.
    skip.add(path.resolve(opts.dataDir, SECRETS_KEY_FILE));
    const files = copyDataFiles(opts.dataDir, path.join(partial, 'fichiers'), skip);
    fs.renameSync(partial, folder);
    const final = path.join(folder, 'facturier.db');
    return { folder, database: final, bytes: fs.statSync(final).size, ms: performance.now() - started, counts, files };
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `npm run restore -- DOSSIER`: puts a verified backup back. The current database (and its WAL) is moved aside, not
 * deleted, and the data files are copied back over the data folder. The server must be stopped: a running one
 * would keep writing to the file moved aside.
 */
export function restoreDatabase(opts: { backup: string; databasePath: string; dataDir: string; now?: Date }): {
  counts: Record<string, number>;
  movedAside: string | null;
  files: number;
} {
  const database =
    fs.existsSync(opts.backup) && fs.statSync(opts.backup).isDirectory() ? path.join(opts.backup, 'facturier.db') : opts.backup;
  const counts = verifyDatabaseCopy(database);
  let movedAside: string | null = null;
  if (fs.existsSync(opts.databasePath)) {
    movedAside = `${opts.databasePath}.avant-restauration-${stamp(opts.now ?? new Date())}`;
    fs.renameSync(opts.databasePath, movedAside);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(`${opts.databasePath}${suffix}`)) fs.renameSync(`${opts.databasePath}${suffix}`, `${movedAside}${suffix}`);
    }
  }
  fs.mkdirSync(path.dirname(opts.databasePath), { recursive: true });
  fs.copyFileSync(database, `${opts.databasePath}.restauration`);
  fs.renameSync(`${opts.databasePath}.restauration`, opts.databasePath);
  const filesDir = path.join(path.dirname(database), 'fichiers');
  const files = copyDataFiles(filesDir, opts.dataDir, new Set());
  return { counts, movedAside, files };
}
