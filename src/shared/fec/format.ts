import { unitsToDecimalText } from '../money';
import { type FecEntry, type FecJournal, JOURNAL_LABELS } from './entries';

/** LPF art. A47 A-1: the 18 fields, in this order, named so on the first line. */
export const FEC_FIELDS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

const SEPARATOR = '\t';
const NEWLINE = '\r\n';

/** YYYY-MM-DD → YYYYMMDD. */
const day = (date: string) => date.slice(0, 10).replaceAll('-', '');
/** Units → '1234,56': no thousands separator, a comma before the decimals. */
const amount = (units: bigint, precision: number) => unitsToDecimalText(units, precision).replace('.', ',');
/** A tab or a line break inside a field would shift every column after it. */
const field = (text: string) => text.replace(/[\t\r\n]+/g, ' ').trim();

const JOURNAL_ORDER: Record<FecJournal, number> = { VT: 0, AC: 1, BQ: 2, OD: 3 };

/** Entries in the order of their dates, sales, purchases, bank then miscellaneous on a day, then as they were recorded; numbered per journal in that order. */
export function sortEntries(entries: FecEntry[]): FecEntry[] {
  return [...entries].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      JOURNAL_ORDER[a.journal] - JOURNAL_ORDER[b.journal] ||
      a.recordedAt.localeCompare(b.recordedAt) ||
      a.pieceRef.localeCompare(b.pieceRef, 'fr', { numeric: true }),
  );
}

/**
 * One label per account and per auxiliary account across the file, the latest one written: a customer renamed, or
 * two categories booked to one account, must not give one account two names (the administration's checks refuse it).
 */
function labelsOf(entries: FecEntry[]) {
  const accounts = new Map<string, string>();
  const auxiliaries = new Map<string, string>();
  for (const entry of entries)
    for (const line of entry.lines) {
      accounts.set(line.account, field(line.accountLabel));
      if (line.aux) auxiliaries.set(field(line.aux.number), field(line.aux.label));
    }
  return {
    account: (account: string) => accounts.get(account) ?? '',
    aux: (number: string) => auxiliaries.get(number) ?? '',
  };
}

/** The FEC text: the header line, then one line per entry line; `precision` is the accounting currency's decimals. */
export function fecText(entries: FecEntry[], precision: number): string {
  const counters: Record<FecJournal, number> = { VT: 0, AC: 0, BQ: 0, OD: 0 };
  const rows: string[] = [FEC_FIELDS.join(SEPARATOR)];
  const sorted = sortEntries(entries);
  const labels = labelsOf(sorted);
  for (const entry of sorted) {
    counters[entry.journal] += 1;
    const number = `${entry.journal}${String(counters[entry.journal]).padStart(6, '0')}`;
    for (const line of entry.lines) {
      const values: Record<(typeof FEC_FIELDS)[number], string> = {
        JournalCode: entry.journal,
        JournalLib: JOURNAL_LABELS[entry.journal],
        EcritureNum: number,
        EcritureDate: day(entry.date),
        CompteNum: line.account,
        CompteLib: labels.account(line.account),
        CompAuxNum: field(line.aux?.number ?? ''),
        CompAuxLib: line.aux ? labels.aux(field(line.aux.number)) : '',
        PieceRef: field(entry.pieceRef),
        PieceDate: day(entry.pieceDate),
        EcritureLib: field(line.label),
        Debit: amount(line.debit, precision),
        Credit: amount(line.credit, precision),
        EcritureLet: '',
        DateLet: '',
        ValidDate: day(entry.validDate),
        Montantdevise: line.foreign ? amount(line.foreign.units, line.foreign.precision) : '',
        Idevise: line.foreign?.currency ?? '',
      };
      rows.push(FEC_FIELDS.map((name) => values[name]).join(SEPARATOR));
    }
  }
  return rows.join(NEWLINE) + NEWLINE;
}

/** `{SIREN}FEC{YYYYMMDD}.txt` (LPF art. A47 A-1), dated the closing date of the fiscal year it holds. */
export const fecFileName = (siren: string, closingDate: string) => `${siren}FEC${day(closingDate)}.txt`;
