import type { z } from 'zod';
import { CsvTooLarge, headerKey, parseCsv, toCsv, unguardFormula, unwrapText, type CsvLimits } from '../../shared/csv';
import { fail, validationMessages } from '../errors';
import { parisDateOf } from '../../shared/paris-date';
import { plural, pluralWord } from '../../shared/french';

/** One column of an import/export: its French header, how a record fills it, how a cell fills the raw input. */
export interface CsvColumn<T> {
  header: string;
  read: (record: T) => string;
  write?: (raw: Record<string, unknown>, value: string) => void;
  /** A code Excel must not read as a number (leading zeros, long digit runs): written `="01000"`. */
  code?: true;
}

export interface CsvRowReport {
  total_rows: number;
  valid: number;
  rejected: { line: number; messages: string[] }[];
  ignored_columns: string[];
  changed: { line: number; column: string; message: string }[];
  created: number;
}

/**
 * A cell as the import keeps it: our export's protective apostrophe (shared/csv.ts) is taken off, so a file exported
 * then imported gives back the same names; a cell that looks like a formula is kept as text and said.
 */
function readCell(text: string): { value: string; message?: string } {
  // A code our export wrapped so that Excel keeps its leading zeros reads back as the code.
  const code = unwrapText(text);
  if (code !== null) return { value: code };
  const unguarded = unguardFormula(text);
  if (unguarded !== null) return { value: unguarded, message: 'apostrophe de protection retirée (elle sera remise à l’export)' };
  if (/^[=@]/.test(text)) return { value: text, message: `commence par « ${text[0]} » : gardé comme texte, jamais comme formule` };
  return { value: text };
}

/** An import's rows, and the fields of a row (ours have about twenty columns), stopped while parsing. */
/** What an import answers in French: the rows ready and rejected on a dry run, the records created otherwise. */
export function importReportMessage(report: CsvRowReport, dryRun: boolean, noun: string): string {
  return dryRun
    ? `${plural(report.valid, noun)} ${pluralWord(report.valid, 'prêt')} à importer, ${plural(report.rejected.length, 'ligne')} ${pluralWord(report.rejected.length, 'rejetée')}`
    : `${plural(report.created, noun)} ${pluralWord(report.created, 'importé')}`;
}

export const IMPORT_LIMITS: CsvLimits = { maxRows: 10_000, maxCells: 200 };

function parseImport(csv: string) {
  try {
    return parseCsv(csv, IMPORT_LIMITS);
  } catch (error) {
    if (error instanceof CsvTooLarge) fail('BAD_REQUEST', error.message);
    throw error;
  }
}

/**
 * Reads a CSV through the columns (found by header, in any order) and the same Zod schema as the form. `check`
 * adds what only the server knows (a unit that must exist, a code already taken). Returns the valid rows with
 * their line, and every rejected line with its reasons.
 */
export function readCsvTable<S extends z.ZodType>(
  csv: string,
  columns: CsvColumn<never>[],
  schema: S,
  opts: { required: string; emptyRaw: () => Record<string, unknown>; check?: (data: z.infer<S>) => string[] },
) {
  const { header, rows } = parseImport(csv);
  const byKey = new Map(columns.map((c) => [headerKey(c.header), c]));
  const found = header.map((h) => byKey.get(headerKey(h)));
  if (!found.some((c) => c?.header === opts.required)) {
    fail('BAD_REQUEST', `La colonne « ${opts.required} » est introuvable : la première ligne doit nommer les colonnes`);
  }

  const valid: { line: number; data: z.infer<S> }[] = [];
  const rejected: CsvRowReport['rejected'] = [];
  const changed: CsvRowReport['changed'] = [];
  for (const { line, cells } of rows) {
    const raw = opts.emptyRaw();
    found.forEach((column, i) => {
      if (!column?.write) return;
      const { value, message } = readCell((cells[i] ?? '').trim());
      if (message) changed.push({ line, column: column.header, message });
      column.write(raw, value);
    });
    const problems: string[] = [];
    if (cells.length > header.length) problems.push(`${cells.length} champs pour ${header.length} colonnes : un point-virgule en trop ?`);
    if (cells.some((c) => c.includes('\uFFFD'))) problems.push('Caractères illisibles : enregistrez le fichier en UTF-8');
    const parsed = schema.safeParse(raw);
    if (!parsed.success) problems.push(...validationMessages(parsed.error.issues, schema));
    else problems.push(...(opts.check?.(parsed.data) ?? []));
    if (problems.length || !parsed.success) rejected.push({ line, messages: problems });
    else valid.push({ line, data: parsed.data });
  }
  return { total: rows.length, valid, rejected, changed, ignored: header.filter((_, i) => !found[i]) };
}

/** A CSV file French Excel opens as is (BOM, ';', CRLF), named `{prefix}-YYYY-MM-DD.csv`. */
export function csvFile<T>(prefix: string, columns: CsvColumn<T>[], records: T[]): { filename: string; content: string } {
  return {
    filename: `${prefix}-${parisDateOf(new Date())}.csv`,
    content: toCsv(
      columns.map((c) => c.header),
      records.map((r) => columns.map((c) => c.read(r))),
      new Set(columns.flatMap((c, i) => (c.code ? [i] : []))),
    ),
  };
}
