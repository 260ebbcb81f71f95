import { createHash } from 'node:crypto';
import { camtKind, readCamt } from './camt';
import { readCsvStatement } from './csv-statement';
import { isOfx, readOfx } from './ofx';
import { isQif, readQif } from './qif';
import { ACCEPTED_FORMATS, type CsvMapping, type Statement, StatementError, type StatementLine } from './statement';

/** Lines of one statement at most: a year of a busy account; a file past it is refused before any line is kept. */
export const STATEMENT_MAX_LINES = 100_000;

/** UTF-8 when the bytes are; otherwise Windows-1252, in which most French banks still export their CSV and QIF. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function readText(text: string, filename: string, csvMapping: CsvMapping | null): Promise<Statement> | Statement {
  const head = text.slice(0, 4000);
  if (/^\s*</.test(head) && !isOfx(text)) {
    const namespace = /xmlns(?::\w+)?="(urn:iso:std:iso:20022:tech:xsd:[^"]+)"/.exec(head)?.[1] ?? '';
    if (camtKind(namespace)) return readCamt(text);
    throw new StatementError(`Ce fichier XML n’est pas un relevé bancaire : formats acceptés : ${ACCEPTED_FORMATS}`);
  }
  if (isOfx(text)) return readOfx(text);
  if (isQif(text)) return readQif(text);
  const firstLine = head.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  if (/\.csv$/i.test(filename) || /[;,].*[;,]/.test(firstLine)) return readCsvStatement(text, csvMapping, STATEMENT_MAX_LINES);
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

export type StatementReading = { ok: true; statement: Statement; fingerprints: string[] } | { ok: false; message: string };

/** Reads a statement file (run in a worker thread: a 10 MB file is parsed away from the requests). */
export async function readStatement(bytes: Uint8Array, filename: string, csvMapping: CsvMapping | null): Promise<StatementReading> {
  try {
    const statement = await readText(decode(bytes), filename, csvMapping);
    if (statement.lines.length > STATEMENT_MAX_LINES)
      return { ok: false, message: `Le relevé compte ${statement.lines.length} opérations : ${STATEMENT_MAX_LINES} au plus par fichier` };
    return { ok: true, statement, fingerprints: fingerprints(statement.lines) };
  } catch (error) {
    if (error instanceof StatementError) return { ok: false, message: error.message };
    throw error;
  }
}
