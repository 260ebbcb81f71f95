import { CsvTooLarge, parseCsv } from '../../shared/csv';
import { cleanText, type CsvMapping, decimalText, isoDateOf, type Statement, StatementError, type StatementLine } from './statement';

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

/**
 * The columns of a statement guessed from its header, as the big French banks name them (« Date opération »,
 * « Libellé », « Débit » / « Crédit » or « Montant »); null when the date, the label or an amount cannot be found.
 */
export function guessMapping(header: string[]): CsvMapping | null {
  const keys = header.map(words);
  const find = (test: (w: string) => boolean) => {
    const index = keys.findIndex(test);
    return index === -1 ? null : index;
  };
  const date = find((w) => IS.date(w) && !IS.valueDate(w));
  const label = find(IS.label);
  const debit = find(IS.debit);
  const credit = find(IS.credit);
  const amount = debit !== null && credit !== null ? null : find(IS.amount);
  if (date === null || label === null || (amount === null && (debit === null || credit === null))) return null;
  const details = keys.flatMap((w, i) => (IS.details(w) && i !== label ? [i] : []));
  return { date, valueDate: find(IS.valueDate), label, amount, debit, credit, details };
}

/** Bank exports often start with lines about the account: the header is the first line naming a date and an amount. */
function fromHeader(text: string): { text: string; skipped: number } {
  const lines = text.split(/\r?\n/);
  const index = lines.slice(0, 30).findIndex((line) => {
    const w = words(line);
    return /\bdate/.test(w) && /(montant|amount|debit|credit)/.test(w);
  });
  return index <= 0 ? { text, skipped: 0 } : { text: lines.slice(index).join('\n'), skipped: index };
}

export function readCsvStatement(text: string, remembered: CsvMapping | null, maxRows: number): Statement {
  const { text: body, skipped } = fromHeader(text);
  let parsed: ReturnType<typeof parseCsv>;
  try {
    parsed = parseCsv(body, { maxRows, maxCells: 60 });
  } catch (error) {
    if (error instanceof CsvTooLarge) throw new StatementError(error.message);
    throw error;
  }
  const mapping = remembered ?? guessMapping(parsed.header);
  if (!mapping)
    throw new StatementError(
      `Colonnes du relevé CSV non reconnues (${parsed.header.join(' ; ')}) : il faut une date, un libellé, et un montant ou des colonnes Débit et Crédit`,
    );
  const lines: StatementLine[] = [];
  const rejected: Statement['rejected'] = [];
  for (const { line: at, cells } of parsed.rows) {
    const line = at + skipped;
    const cell = (index: number | null) => (index === null ? '' : (cells[index] ?? '').trim());
    const date = isoDateOf(cell(mapping.date));
    let amount: string | null;
    if (mapping.amount !== null) amount = decimalText(cell(mapping.amount));
    else {
      const debit = decimalText(cell(mapping.debit));
      const credit = decimalText(cell(mapping.credit));
      // A debit column holds the amount with or without its minus sign.
      amount = debit && debit !== '0' && !/^0+(\.0+)?$/.test(debit) ? `-${debit.replace(/^-/, '')}` : credit;
    }
    if (!date) rejected.push({ line, reason: `Date illisible (« ${cell(mapping.date)} »)` });
    else if (!amount) rejected.push({ line, reason: 'Montant illisible ou absent' });
    else
      lines.push({
        line,
        date,
        valueDate: isoDateOf(cell(mapping.valueDate)),
        amount,
        currency: 'EUR',
        label: cleanText([cell(mapping.label), ...mapping.details.map(cell)].filter(Boolean).join(' ')) || 'Opération',
        counterparty: '',
        reference: '',
        bankId: '',
      });
  }
  return { format: 'csv', account: null, lines, rejected, csvMapping: mapping, balance: null };
}
