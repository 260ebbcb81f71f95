import { SECRETS_KEY_FILE } from '../crypto/secret-box';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { COUNTED, type BackupReport, copyDataFiles, stamp } from './backup';
import { type Db, openDatabase } from './connection';
import { DatabaseFileError } from './database-file';

const run = promisify(execFile);

/** The dump's name inside a backup folder (the SQLite path writes `facturier.db` there). */
export const DUMP_FILE = 'facturier.dump';

/**
 * A PostgreSQL client tool: on PATH first (Debian's wrapper picks the right version), else the newest of Debian's
 * `/usr/lib/postgresql/<version>/bin` (a pg_dump older than the server refuses to dump it). French error when absent.
 */
export function findPostgresTool(name: 'pg_dump' | 'pg_restore', where: { pathVariable?: string; versionsDir?: string } = {}): string {
  const pathVariable = where.pathVariable ?? process.env.PATH ?? '';
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  const versionsDir = where.versionsDir ?? '/usr/lib/postgresql';
  const versions = fs.existsSync(versionsDir)
    ? fs
        .readdirSync(versionsDir)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const candidate = path.join(versionsDir, version, 'bin', name);
    if (isExecutable(candidate)) return candidate;
  }
  throw new DatabaseFileError(
    `${name} est introuvable (ni dans le PATH ni dans ${versionsDir}/*/bin) : installez les outils clients de PostgreSQL (Debian : apt-get install -y postgresql-client) de la version du serveur ou plus récente`,
  );
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The URL without its password, which goes to the tools through PGPASSWORD: a command line is visible to every user
 * of the machine (`ps`), the environment of a process is not.
 */
function connectionArgs(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a client tool; its own message (stderr) becomes the French error's detail. */
async function tool(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(file, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    throw new DatabaseFileError(`${path.basename(file)} a échoué : ${detail}`);
  }
}

async function countRows(db: Db): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const tables = new Set(rows.map((r) => r.table_name));
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    if (!tables.has(table)) continue;
    const { rows: n } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(n[0]?.n ?? 0);
  }
  return counts;
}

/**
 * Checks a dump is whole and a Facturier one: `pg_restore --list` reads its table of contents, which must hold the
 * data of every counted table. Throws a French DatabaseFileError otherwise.
 */
export async function verifyPostgresDump(file: string): Promise<void> {
  if (!fs.existsSync(file)) throw new DatabaseFileError(`${file} est introuvable`);
  const list = await tool(findPostgresTool('pg_restore'), ['--list', file], process.env).catch((error: unknown) => {
    throw new DatabaseFileError(
      `${file} n’est pas une sauvegarde PostgreSQL lisible (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  const missing = COUNTED.filter((table) => !new RegExp(`\\bTABLE DATA \\S+ ${table} `).test(list));
  if (missing.length) throw new DatabaseFileError(`${file} n’est pas une sauvegarde Facturier : tables absentes (${missing.join(', ')})`);
}

/**
 * `npm run backup` on PostgreSQL: `pg_dump --format=custom` of one snapshot while the app keeps writing. The rows
 * are counted in a repeatable-read transaction whose snapshot pg_dump is given (`--snapshot`), so the counts are those
 * of the dump itself. Written under a temporary name, verified (`pg_restore --list`), then renamed, with DATA_DIR's
 * files beside it, as the SQLite backup does.
 */
export async function backupPostgres(opts: {
  databaseUrl: string;
  dataDir: string;
  backupsDir: string;
  now?: Date;
}): Promise<BackupReport> {
  const started = performance.now();
  const pgDump = findPostgresTool('pg_dump');
  findPostgresTool('pg_restore'); // the verification needs it: refused before anything is written
  const folder = path.join(opts.backupsDir, `facturier-${stamp(opts.now ?? new Date())}`);
  if (fs.existsSync(folder)) throw new DatabaseFileError(`La sauvegarde ${folder} existe déjà : relancez dans une seconde`);
  const partial = `${folder}.partiel`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const connection = openDatabase(opts.databaseUrl);
  try {
    const dump = path.join(partial, DUMP_FILE);
    const { dbname, env } = connectionArgs(opts.databaseUrl);
    const counts = await connection.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const snapshot = rows[0]?.id ?? '';
        const found = await countRows(trx);
        if (found.organizations === undefined)
          throw new DatabaseFileError('Rien à sauvegarder : la base n’est pas une base Facturier (aucune table organizations)');
        await tool(pgDump, ['--format=custom', '--no-owner', `--snapshot=${snapshot}`, `--file=${dump}`, `--dbname=${dbname}`], env);
        return found;
      });
    await verifyPostgresDump(dump);
    const files = copyDataFiles(
      opts.dataDir,
      path.join(partial, 'fichiers'),
      // The key of the stored secrets stays out, as with SQLite (backup.ts).
      new Set([path.resolve(opts.backupsDir), path.resolve(opts.dataDir, SECRETS_KEY_FILE)]),
    );
    fs.renameSync(partial, folder);
    const final = path.join(folder, DUMP_FILE);
    return { folder, database: final, bytes: fs.statSync(final).size, ms: performance.now() - started, counts, files };
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  } finally {
    await connection.close();
  }
}

/**
 * `npm run restore -- DOSSIER` on PostgreSQL: the verified dump into DATABASE_URL, which must be an empty database
 * (create one: `createdb facturier`) unless `force`, which drops and recreates what the dump holds. One transaction:
 * a failed restore leaves the target as it was. Then the tables are analysed, DATA_DIR's files copied back and the
 * rows counted.
 */
export async function restorePostgres(opts: { backup: string; databaseUrl: string; dataDir: string; force?: boolean }): Promise<{
  counts: Record<string, number>;
  files: number;
}> {
  const dump = fs.existsSync(opts.backup) && fs.statSync(opts.backup).isDirectory() ? path.join(opts.backup, DUMP_FILE) : opts.backup;
  await verifyPostgresDump(dump);
  const pgRestore = findPostgresTool('pg_restore');
  const connection = openDatabase(opts.databaseUrl);
  try {
    const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.tables
      where table_schema = current_schema()`.execute(connection.db);
    const tables = Number(rows[0]?.n ?? 0);
    if (tables > 0 && !opts.force)
      throw new DatabaseFileError(
        `La base cible n’est pas vide (${tables} table${tables > 1 ? 's' : ''}) : la restauration se fait dans une base vide. Créez-en une (createdb) ou ajoutez --force pour remplacer son contenu.`,
      );
    const { dbname, env } = connectionArgs(opts.databaseUrl);
    const replace = tables > 0 ? ['--clean', '--if-exists'] : [];
    await tool(pgRestore, ['--no-owner', '--exit-on-error', '--single-transaction', ...replace, `--dbname=${dbname}`, dump], env);
    // A dump carries no statistics: until autovacuum looks (a minute), the planner takes every table for a few rows and
    // joins a common word's matches to the documents row by row (0.5 s a count for 1 700 documents, growing as their
    // square). The database copy analyses its target for the same reason.
    await sql`analyze`.execute(connection.db);
    const counts = await countRows(connection.db);
    const files = copyDataFiles(path.join(path.dirname(dump), 'fichiers'), opts.dataDir, new Set());
    return { counts, files };
  } finally {
    await connection.close();
  }
}
