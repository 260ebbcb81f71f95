import fs from 'node:fs';
import SQLite from 'better-sqlite3';

/** Why a file cannot be used as Facturier's database, in French, for the operator reading the terminal. */
export class DatabaseFileError extends Error {}

const SQLITE_HEADER = 'SQLite format 3\0';
/** Tables every Facturier database has had since its first migration (0001_init). */
const OWN_TABLES = ['kysely_migration', 'organizations', 'users', 'memberships'];

/** What a SQLite file holds, read without writing a byte (readonly, no WAL replay left behind). */
export function inspectDatabaseFile(file: string): { kind: 'missing' | 'empty' | 'not-sqlite' | 'foreign' | 'blank' | 'facturier' } {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { kind: 'missing' };
  }
  if (stat.size === 0) return { kind: 'empty' };
  const header = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (header.toString('latin1') !== SQLITE_HEADER) return { kind: 'not-sqlite' };
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => (r as { name: string }).name),
    );
    if (tables.size === 0) return { kind: 'blank' };
    return { kind: OWN_TABLES.every((t) => tables.has(t)) ? 'facturier' : 'foreign' };
  } finally {
    sqlite.close();
  }
}

/**
 * After a failed backup left a 0-byte file, the app started on it as on a new, empty database — and the
 * business saw its invoices gone. A missing file is a first start; an empty, foreign or non-SQLite one is refused.
 */
export function assertUsableDatabaseFile(file: string): void {
  const { kind } = inspectDatabaseFile(file);
  const hint = 'restaurez une sauvegarde (npm run restore -- DOSSIER) ou indiquez le bon fichier dans DATABASE_URL';
  if (kind === 'empty')
    throw new DatabaseFileError(`La base ${file} est un fichier vide (0 octet) : elle n’est pas ouverte comme une base neuve ; ${hint}.`);
  if (kind === 'not-sqlite') throw new DatabaseFileError(`Le fichier ${file} n’est pas une base SQLite : ${hint}.`);
  if (kind === 'foreign')
    throw new DatabaseFileError(`La base ${file} n’est pas une base Facturier (ses tables sont d’une autre application) : ${hint}.`);
}
