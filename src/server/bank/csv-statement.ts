import { CsvTooLarge, type ParsedCsv, parseCsv } from '../../shared/csv';
import { CSV_DATE_FORMAT_LABELS, CSV_DATE_FORMATS, type CsvDateFormat, type CsvPreview } from '../../shared/schemas/bank-csv';
import { cleanText, type CsvMapping, type Statement, StatementError, type StatementLine } from './statement';

/** Plain lower-case words of a header cell: 'Date d’opération' → 'date d operation'. */
const words = (cell: string) =>
  cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const IS = {
  date: (w: string) => /^date( (d )?(de l )?operation| op| comptable| de comptabilisation)?$|^dateop$|^date$/.test(w),
  valueDate: (w: string) => /valeur|^dateval$/.test(w),
  label: (w: string) => /^(libelle|label|description|libelle (de l )?operation|libelle simplifie|intitule|nature de l operation)$/.test(w),
  details: (w: string) => /detail|informations complementaires|libelle complementaire|memo/.test(w),
  amount: (w: string) => /^(montant|amount|montant( de l operation| eur| en euros| euros)?|valeur)$/.test(w),
  debit: (w: string) => /^debit( euros| eur)?$/.test(w),
  credit: (w: string) => /^credit( euros| eur)?$/.test(w),
};

const DATE_SHAPES: Record<CsvDateFormat, RegExp> = {
  'DD/MM/YYYY': /^(?<d>\d{1,2})[/.-](?<m>\d{1,2})[/.-](?<y>\d{4})$/,
  'DD/MM/YY': /^(?<d>\d{1,2})[/.-](?<m>\d{1,2})[/.-](?<y>\d{2})$/,
  'YYYY-MM-DD': /^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})(?:[T ].*)?$/,
  YYYYMMDD: /^(?<y>\d{4})(?<m>\d{2})(?<d>\d{2})$/,
};

/** A date cell in the mapping's format to YYYY-MM-DD; 'shape' when it is not written that way, 'impossible' for 31/11. */
export function dateIn(text: string, format: CsvDateFormat): string | 'shape' | 'impossible' {
  const groups = DATE_SHAPES[format].exec(text.trim())?.groups;
  if (!groups) return 'shape';
  const year = groups.y?.length === 2 ? `20${groups.y}` : groups.y;
  const iso = `${year}-${groups.m?.padStart(2, '0')}-${groups.d?.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? 'impossible' : iso;
}

/** An amount cell with the mapping's decimal separator ('1 234,56', '-3,50 €') to signed decimal text; null otherwise. */
export function amountIn(text: string, separator: ',' | '.'): string | null {
  const cleaned = text.replace(/[\s\u00a0\u202f']/g, '').replace(/€|EUR/gi, '');
  const normal = separator === ',' ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned.replace(/,/g, '');
  if (!/^[-+]?\d+(\.\d{1,4})?$/.test(normal)) return null;
  const negative = normal.startsWith('-');
  const digits = normal.replace(/^[-+]/, '');
  return negative && !/^0+(\.0+)?$/.test(digits) ? `-${digits}` : digits;
}

const isZero = (amount: string) => /^-?0+(\.0+)?$/.test(amount);

/** Bank exports often start with lines about the account: the header is the first line naming a date and an amount. */
function fromHeader(text: string): { text: string; skipped: number } {
  const lines = text.split(/\r?\n/);
  const index = lines.slice(0, 30).findIndex((line) => {
    const w = words(line);
    return /\bdate/.test(w) && /(montant|amount|debit|credit)/.test(w);
  });
  return index <= 0 ? { text, skipped: 0 } : { text: lines.slice(index).join('\n'), skipped: index };
}

function parsed(text: string, maxRows: number): { csv: ParsedCsv; skipped: number } {
  const { text: body, skipped } = fromHeader(text);
  try {
    return { csv: parseCsv(body, { maxRows, maxCells: 60 }), skipped };
  } catch (error) {
    if (error instanceof CsvTooLarge) throw new StatementError(error.message);
    throw error;
  }
}

/**
 * The columns of a statement guessed from its header, as the big French banks name them (« Date opération »,
 * « Libellé », « Débit » / « Crédit » or « Montant »), and from its first cells where the header says nothing; the
 * date format and decimal separator from the first cells. The user confirms or corrects it before anything is read.
 */
export function guessMapping(header: string[], rows: string[][], encoding: CsvMapping['encoding']): CsvMapping {
  const keys = header.map(words);
  const find = (test: (w: string) => boolean) => {
    const index = keys.findIndex(test);
    return index === -1 ? null : index;
  };
  const sample = (index: number) => rows.map((cells) => (cells[index] ?? '').trim()).filter(Boolean);
  const dateFormatOf = (index: number) =>
    CSV_DATE_FORMATS.find((format) => {
      const cells = sample(index);
      return cells.length > 0 && cells.every((cell) => dateIn(cell, format) !== 'shape');
    });
  const numeric = (index: number) => sample(index).length > 0 && sample(index).every((cell) => amountIn(cell, ',') !== null);
  const columns = header.map((_, i) => i);

  const date = find((w) => IS.date(w) && !IS.valueDate(w)) ?? columns.find((i) => dateFormatOf(i)) ?? 0;
  const debit = find(IS.debit);
  const credit = find(IS.credit);
  const amount =
    debit !== null && credit !== null ? null : (find(IS.amount) ?? columns.findLast((i) => i !== date && numeric(i)) ?? header.length - 1);
  const taken = new Set([date, amount, debit, credit]);
  const label = find(IS.label) ?? columns.find((i) => !taken.has(i) && !dateFormatOf(i) && !numeric(i)) ?? Math.min(1, header.length - 1);
  const details = keys.flatMap((w, i) => (IS.details(w) && i !== label ? [i] : []));
  const valueDate = find(IS.valueDate);
  const amountCells = [amount, debit, credit].flatMap((i) => (i === null ? [] : sample(i)));
  const decimal = amountCells.some((cell) => /,\d{1,4}\s*(€|EUR)?$/i.test(cell))
    ? ','
    : amountCells.some((cell) => /\.\d{1,4}\s*(€|EUR)?$/i.test(cell))
      ? '.'
      : ',';
  return {
    date,
    value_date: valueDate === date ? null : valueDate,
    label,
    details,
    amount,
    debit: amount === null ? debit : null,
    credit: amount === null ? credit : null,
    date_format: dateFormatOf(date) ?? 'DD/MM/YYYY',
    decimal_separator: decimal,
    encoding,
  };
}

/** Columns of the mapping, with what they hold, for the messages. */
function mappedColumns(mapping: CsvMapping): [string, number][] {
  const named: [string, number | null][] = [
    ['date', mapping.date],
    ['date de valeur', mapping.value_date],
    ['libellé', mapping.label],
    ['montant', mapping.amount],
    ['débit', mapping.debit],
    ['crédit', mapping.credit],
    ...mapping.details.map((i): [string, number] => ['détail', i]),
  ];
  return named.flatMap(([what, i]) => (i === null ? [] : [[what, i]]));
}

const columnName = (header: string[], index: number) => `colonne ${index + 1}${header[index] ? ` « ${header[index]} »` : ''}`;

/** The French reason a mapping names a column the file does not have; null when every column is there. */
export function missingColumn(mapping: CsvMapping, header: string[]): string | null {
  const missing = mappedColumns(mapping).find(([, i]) => i >= header.length);
  if (!missing) return null;
  const [what, index] = missing;
  return `Colonnes du relevé : la colonne ${index + 1} choisie pour « ${what} » n’existe pas, le fichier n’a que ${header.length} colonne${header.length > 1 ? 's' : ''} (${header.join(' ; ')})`;
}

type ReadLine = { ok: true; line: StatementLine } | { ok: false; reason: string; problem: string };

/** One data line under the mapping: the line, or why not (a short reason for the report, a precise one naming the column). */
function readLine(cells: string[], line: number, header: string[], mapping: CsvMapping): ReadLine {
  const cell = (index: number | null) => (index === null ? '' : (cells[index] ?? '').trim());
  const formatLabel = CSV_DATE_FORMAT_LABELS[mapping.date_format];
  const date = dateIn(cell(mapping.date), mapping.date_format);
  if (date === 'shape' || date === 'impossible')
    return {
      ok: false,
      reason: `Date illisible (« ${cell(mapping.date)} »)`,
      problem: `Ligne ${line}, ${columnName(header, mapping.date)} choisie comme date : « ${cell(mapping.date)} » n’est pas une date ${date === 'shape' ? formatLabel : 'qui existe'}`,
    };
  const amountOf = (index: number | null, what: string): { amount: string | null; problem: string | null } => {
    const text = cell(index);
    if (text === '' || index === null) return { amount: null, problem: null };
    const amount = amountIn(text, mapping.decimal_separator);
    return amount === null
      ? {
          amount: null,
          problem: `Ligne ${line}, ${columnName(header, index)} choisie comme ${what} : « ${text} » n’est pas un montant (séparateur décimal « ${mapping.decimal_separator} »)`,
        }
      : { amount, problem: null };
  };
  let amount: string | null;
  if (mapping.amount !== null) {
    const read = amountOf(mapping.amount, 'montant');
    if (read.problem) return { ok: false, reason: 'Montant illisible ou absent', problem: read.problem };
    amount = read.amount;
  } else {
    const debit = amountOf(mapping.debit, 'débit');
    const credit = amountOf(mapping.credit, 'crédit');
    const problem = debit.problem ?? credit.problem;
    if (problem) return { ok: false, reason: 'Montant illisible ou absent', problem };
    // A debit column holds the amount with or without its minus sign.
    amount = debit.amount && !isZero(debit.amount) ? `-${debit.amount.replace(/^-/, '')}` : credit.amount;
  }
  if (!amount)
    return {
      ok: false,
      reason: 'Montant illisible ou absent',
      problem: `Ligne ${line} : aucun montant dans la ${
        mapping.amount !== null
          ? columnName(header, mapping.amount)
          : `${columnName(header, mapping.debit ?? 0)} ni la ${columnName(header, mapping.credit ?? 0)}`
      }`,
    };
  const valueDate = mapping.value_date === null ? null : dateIn(cell(mapping.value_date), mapping.date_format);
  return {
    ok: true,
    line: {
      line,
      date,
      valueDate: valueDate === null || valueDate === 'shape' || valueDate === 'impossible' ? null : valueDate,
      amount,
      currency: 'EUR',
      label: cleanText([cell(mapping.label), ...mapping.details.map(cell)].filter(Boolean).join(' ')) || 'Opération',
      counterparty: '',
      reference: '',
      bankId: '',
    },
  };
}

/** The header and the first lines of a CSV statement as the mapping (the guessed one when none) reads them. */
export function previewCsvStatement(text: string, mapping: CsvMapping | null, encoding: CsvMapping['encoding'], rows = 10): CsvPreview {
  const { csv, skipped } = parsed(text, 100_000);
  const first = csv.rows.slice(0, rows);
  const used =
    mapping ??
    guessMapping(
      csv.header,
      first.map((r) => r.cells),
      encoding,
    );
  return {
    header: csv.header,
    mapping: used,
    rows: first.map(({ line: at, cells }) => {
      const read = readLine(cells, at + skipped, csv.header, used);
      return {
        line: at + skipped,
        cells,
        date: read.ok ? read.line.date : null,
        amount: read.ok ? Number(read.line.amount) : null,
        label: read.ok ? read.line.label : '',
        problem: read.ok ? null : read.problem,
      };
    }),
    lines: csv.rows.length,
  };
}

/** The header line of a CSV statement, to check a remembered mapping still fits the file. */
export function csvHeaderOf(text: string): string[] {
  return parsed(text, 100_000).csv.header;
}

/**
 * A CSV statement read with a confirmed mapping. A mapping that does not read the file — a column it does not have,
 * or a first line whose date or amount the mapping cannot read — refuses the whole file, naming the column and the
 * line; a later line it cannot read (a footer, an impossible date) is listed with its reason and the others kept.
 */
export function readCsvStatement(text: string, mapping: CsvMapping, maxRows: number): Statement {
  const { csv, skipped } = parsed(text, maxRows);
  const missing = missingColumn(mapping, csv.header);
  if (missing) throw new StatementError(missing);
  const lines: StatementLine[] = [];
  const rejected: Statement['rejected'] = [];
  for (const [index, { line: at, cells }] of csv.rows.entries()) {
    const read = readLine(cells, at + skipped, csv.header, mapping);
    if (read.ok) lines.push(read.line);
    else if (index === 0) throw new StatementError(`${read.problem} : vérifiez les colonnes du relevé`);
    else rejected.push({ line: at + skipped, reason: read.reason });
  }
  return { format: 'csv', account: null, lines, rejected, csvMapping: mapping, balance: null };
}
