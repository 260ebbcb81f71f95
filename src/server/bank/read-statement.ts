import { createHash } from 'node:crypto';
import { camtKind, readCamt } from './camt';
import { csvHeaderOf, missingColumn, previewCsvStatement, readCsvStatement } from './csv-statement';
import { isOfx, readOfx } from './ofx';
import { isQif, readQif } from './qif';
import { ACCEPTED_FORMATS, type CsvMapping, type Statement, StatementError, type StatementLine } from './statement';
import type { CsvPreview } from '../../shared/schemas/bank-csv';

/** Lines of one statement at most: a year of a busy account; a file past it is refused before any line is kept. */
export const STATEMENT_MAX_LINES = 100_000;

/** UTF-8 when the bytes are; otherwise Windows-1252, in which most French banks still export their CSV and QIF. */
function decode(bytes: Uint8Array): { text: string; encoding: CsvMapping['encoding'] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/**
 * How a CSV is to be read: with the mapping the user confirms in this request (`given`), with the guessed one which
 * the caller confirms without seeing it (`guess`), with the one remembered for the account (`remembered`; when the
 * file no longer has its columns, a preview if the caller `ask`s, else the guess), or not at all yet (`preview`: the
 * guessed mapping and the first lines come back, nothing is imported).
 */
export type CsvReading =
  | { mode: 'given'; mapping: CsvMapping }
  | { mode: 'remembered'; mapping: CsvMapping; ask: boolean }
  | { mode: 'guess' }
  | { mode: 'preview' };

export type StatementReading =
  | { ok: true; statement: Statement; fingerprints: string[] }
  | { ok: 'preview'; preview: CsvPreview }
  | { ok: false; message: string };

function readCsv(bytes: Uint8Array, decoded: { text: string; encoding: CsvMapping['encoding'] }, csv: CsvReading): Statement | CsvPreview {
  const { text, encoding } = decoded;
  if (csv.mode === 'preview') return previewCsvStatement(text, null, encoding);
  const guessed = () => readCsvStatement(text, previewCsvStatement(text, null, encoding).mapping, STATEMENT_MAX_LINES);
  if (csv.mode === 'guess') return guessed();
  const chosen = csv.mapping.encoding === encoding ? text : new TextDecoder(csv.mapping.encoding).decode(bytes);
  // A bank that changed its export no longer fits the remembered columns: the user confirms new ones (a screen), or
  // the call takes the new guess.
  if (csv.mode === 'remembered' && missingColumn(csv.mapping, csvHeaderOf(chosen)))
    return csv.ask ? previewCsvStatement(text, null, encoding) : guessed();
  return readCsvStatement(chosen, csv.mapping, STATEMENT_MAX_LINES);
}

function readText(bytes: Uint8Array, filename: string, csv: CsvReading): Promise<Statement> | Statement | CsvPreview {
  const decoded = decode(bytes);
  const { text } = decoded;
  const head = text.slice(0, 4000);
  if (/^\s*</.test(head) && !isOfx(text)) {
    const namespace = /xmlns(?::\w+)?="(urn:iso:std:iso:20022:tech:xsd:[^"]+)"/.exec(head)?.[1] ?? '';
    if (camtKind(namespace)) return readCamt(text);
    throw new StatementError(`Ce fichier XML n’est pas un relevé bancaire : formats acceptés : ${ACCEPTED_FORMATS}`);
  }
  if (isOfx(text)) return readOfx(text);
  if (isQif(text)) return readQif(text);
  const firstLine = head.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  if (/\.csv$/i.test(filename) || /[;,].*[;,]/.test(firstLine)) return readCsv(bytes, decoded, csv);
  throw new StatementError(`Ce fichier n’est pas un relevé bancaire : formats acceptés : ${ACCEPTED_FORMATS}`);
}

/**
 * What makes a line the same line in another file: the bank's own id when the format carries one (camt AcctSvcrRef,
 * OFX FITID), otherwise its date, amount and label, with its rank among identical lines of the file (two coffees of
 * 2,50 € the same day are two lines; the same day in an overlapping file ranks them the same way).
 */
export function fingerprints(lines: StatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const key = line.bankId
      ? `id|${line.bankId}`
      : `${line.date}|${line.amount}|${line.label
          .toUpperCase()
          .replace(/[^A-Z0-9]+/g, ' ')
          .trim()}`;
    const rank = (seen.get(key) ?? 0) + 1;
    seen.set(key, rank);
    return createHash('sha256')
      .update(line.bankId ? key : `${key}|${rank}`)
      .digest('base64url');
  });
}

/** Reads a statement file (run in a worker thread: a 10 MB file is parsed away from the requests). */
export async function readStatement(bytes: Uint8Array, filename: string, csv: CsvReading): Promise<StatementReading> {
  try {
    const read = await readText(bytes, filename, csv);
    if ('header' in read) return { ok: 'preview', preview: read };
    if (read.lines.length > STATEMENT_MAX_LINES)
      return { ok: false, message: `Le relevé compte ${read.lines.length} opérations : ${STATEMENT_MAX_LINES} au plus par fichier` };
    return { ok: true, statement: read, fingerprints: fingerprints(read.lines) };
  } catch (error) {
    if (error instanceof StatementError) return { ok: false, message: error.message };
    throw error;
  }
}
