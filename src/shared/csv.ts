import { defined } from './defined';
import { formatCount } from './typography';
/**
 * CSV as French spreadsheets write it: ';' between fields (',' is accepted when a file uses it), fields quoted
 * with '"' when they hold a separator, a quote or a line break, CRLF or LF lines, an optional UTF-8 BOM.
 */
export const BOM = '\uFEFF';

export interface ParsedCsv {
  header: string[];
  /** Each row with the file line it started on (1 = the header), for error reports. */
  rows: { line: number; cells: string[] }[];
  separator: ';' | ',';
}

function detectSeparator(firstLine: string): ';' | ',' {
  const count = (c: string) => firstLine.split(c).length - 1;
  return count(',') > count(';') ? ',' : ';';
}

/** Where a hostile file stops being read: rows and fields are counted as they are parsed, never all built first. */
export interface CsvLimits {
  /** Non-empty rows after the header. */
  maxRows: number;
  /** Fields on one row. */
  maxCells: number;
}

/** A file past its CsvLimits; the message is French, for the user. */
export class CsvTooLarge extends Error {}

export function parseCsv(text: string, limits?: CsvLimits): ParsedCsv {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const separator = detectSeparator(source.slice(0, source.search(/\r?\n|$/)));
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endField = () => {
    cells.push(field);
    field = '';
    if (limits && cells.length > limits.maxCells)
      throw new CsvTooLarge(`La ligne ${recordLine} compte plus de ${limits.maxCells} colonnes : le fichier n’a pas été lu`);
  };
  const endRecord = () => {
    // Blank rows are skipped as they come, so that only the rows kept count against the cap.
    if (cells.some((c) => c.trim() !== '')) records.push({ line: recordLine, cells });
    if (limits && records.length > limits.maxRows + 1) {
      const most = formatCount(limits.maxRows);
      throw new CsvTooLarge(`Le fichier compte plus de ${most} lignes : ${most} au plus par import`);
    }
    cells = [];
  };
  for (let i = 0; i < source.length; i++) {
    const c = defined(source[i], 'source[i]');
    if (quoted) {
      if (c === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      endField();
      endRecord();
      line++;
      recordLine = line;
    } else field += c;
  }
  if (field !== '' || cells.length > 0) {
    endField();
    endRecord();
  }
  const [header, ...rows] = records;
  return { header: header?.cells.map((h) => h.trim()) ?? [], rows, separator };
}

const needsQuotes = /[";\r\n]/;
const quoted = (value: string) => (needsQuotes.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** What a spreadsheet reads as the start of a formula: `=`, `+`, `-`, `@`, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?\d+([.,]\d+)?$/;
/** The apostrophe a spreadsheet hides and that keeps a cell text (OWASP's advice against CSV injection). */
export const FORMULA_GUARD = "'";

/**
 * A customer named `=HYPERLINK(…)` must not run as a formula in the accountant's Excel: a cell that a spreadsheet
 * would read as a formula gets the hidden apostrophe. Negative amounts (`-12,50`) are numbers, and stay numbers.
 */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `${FORMULA_GUARD}${value}` : value;
}

/** The other way, on import: a cell we (or a careful spreadsheet) protected loses its apostrophe; null = untouched. */
export function unguardFormula(value: string): string | null {
  return value.startsWith(FORMULA_GUARD) && FORMULA_START.test(value.slice(1)) ? value.slice(1) : null;
}

/**
 * A code Excel would turn into a number or a date ('01000' → 1000, '00042' → 42, '1-2' → 2 janv.): it starts with a
 * digit and holds only digits, letters, spaces and . , / : - — never a quote, so it sits safely inside `="…"`.
 */
const CONVERTIBLE_CODE = /^[0-9][0-9A-Za-z .,/:-]*$/;

/**
 * A code cell as Excel keeps it as typed: `="01000"` is a formula whose result is the text itself, the usual way to
 * keep leading zeros in a CSV. Only our own constant strings are written so; anything else goes through
 * neutralizeFormula as every other cell does.
 */
export function keepAsText(value: string): string {
  return CONVERTIBLE_CODE.test(value) ? `="${value}"` : neutralizeFormula(value);
}

/** The other way, on import: `="01000"` as we wrote it → '01000'; null = not ours (left to the formula check). */
export function unwrapText(value: string): string | null {
  const inner = /^="(.*)"$/s.exec(value)?.[1];
  return inner !== undefined && CONVERTIBLE_CODE.test(inner) ? inner : null;
}

/**
 * A CSV Excel opens correctly in France: BOM, ';', CRLF, and no cell that runs as a formula. The columns in `codes`
 * (postal codes, SIREN, item codes…) keep their leading zeros (keepAsText).
 */
export function toCsv(header: string[], rows: string[][], codes: ReadonlySet<number> = new Set()): string {
  const cell = (c: string, i: number) => quoted(codes.has(i) ? keepAsText(c) : neutralizeFormula(c));
  return `${BOM}${[header.map((h) => quoted(neutralizeFormula(h))).join(';'), ...rows.map((r) => r.map(cell).join(';'))].join('\r\n')}\r\n`;
}

/** Header names compared without case, accents or punctuation: 'E-mail', 'email' and 'EMAIL' are one column. */
export const headerKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** '1 234,50' or '1234.5' → 1234.5; '' → undefined; anything else → NaN (the schema then names the field). */
export function frenchNumber(text: string): number | undefined {
  const t = text.replace(/[\s\u00a0\u202f]/g, '');
  if (t === '') return undefined;
  return /^-?\d+([.,]\d+)?$/.test(t) ? Number(t.replace(',', '.')) : Number.NaN;
}

/** 12.5 → '12,5': decimals with a comma, for French spreadsheets. */
export const frenchDecimal = (n: number) => String(n).replace('.', ',');
