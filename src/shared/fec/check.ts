import { FEC_FIELDS } from './format';

/**
 * The structural checks the administration's « Test Compta Demat » runs on a FEC (LPF art. A47 A-1), on the text as
 * written: the 18 fields in order, dates, amounts, balance per entry and per journal, entries numbered in sequence per
 * journal, mandatory fields filled, one label per journal, account and auxiliary account. Answers every problem found,
 * in French, at most `limit` of them; none when the file passes.
 */

type Field = (typeof FEC_FIELDS)[number];
type Row = Record<Field, string>;

/** Fields that may never be empty (CompAux*, EcritureLet, DateLet, Montantdevise and Idevise may). */
const MANDATORY: Field[] = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'ValidDate',
];

const AMOUNT = /^-?\d+(,\d{1,2})?$/;

/** YYYYMMDD that names a real day. */
function validDay(text: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

/** '1234,56' → 123456 hundredths. */
function hundredths(text: string): bigint {
  const [whole = '0', decimals = ''] = text.split(',');
  const negative = whole.startsWith('-');
  const value = BigInt(whole.replace('-', '')) * 100n + BigInt(`${decimals}00`.slice(0, 2));
  return negative ? -value : value;
}

export type FecCheckOptions = {
  /** The fiscal year's closing date (YYYY-MM-DD): no entry after it, and the file named after it. */
  closingDate?: string;
  /** Its opening date, when known: no entry before it. */
  openingDate?: string | null;
  /** The file's name, checked against `{SIREN}FEC{closing date}.txt`. */
  filename?: string;
  siren?: string;
  limit?: number;
};

export function checkFec(text: string, options: FecCheckOptions = {}): string[] {
  const problems: string[] = [];
  const limit = options.limit ?? 50;
  const report = (message: string) => {
    if (problems.length < limit) problems.push(message);
  };
  const day = (iso: string) => iso.replaceAll('-', '');

  if (options.filename !== undefined && options.closingDate !== undefined) {
    const expected = `${options.siren ?? ''}FEC${day(options.closingDate)}.txt`;
    if (options.siren ? options.filename !== expected : !options.filename.endsWith(`FEC${day(options.closingDate)}.txt`))
      report(`Nom du fichier : « ${options.filename} », attendu « ${expected} »`);
  }
  if (!text.endsWith('\r\n') && text !== '') report('Le fichier doit finir par un retour à la ligne (CRLF)');
  const lines = text.split('\r\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.some((l) => l.includes('\n') || l.includes('\r'))) report('Fins de ligne : CRLF attendu partout');
  const header = lines[0]?.split('\t') ?? [];
  if (header.join('\t') !== FEC_FIELDS.join('\t')) report(`En-tête : les 18 champs attendus dans l’ordre (${FEC_FIELDS.join(', ')})`);

  const rows: { row: Row; at: number }[] = [];
  lines.slice(1).forEach((line, i) => {
    const at = i + 2;
    const cells = line.split('\t');
    if (cells.length !== FEC_FIELDS.length) {
      report(`Ligne ${at} : ${cells.length} champs au lieu de ${FEC_FIELDS.length}`);
      return;
    }
    rows.push({ row: Object.fromEntries(FEC_FIELDS.map((f, k) => [f, cells[k] ?? ''])) as Row, at });
  });

  const closing = options.closingDate ? day(options.closingDate) : null;
  const opening = options.openingDate ? day(options.openingDate) : null;
  const entries = new Map<string, { rows: { row: Row; at: number }[] }>();
  const journals = new Map<string, { lib: string; debit: bigint; credit: bigint; order: string[] }>();
  const accountLabels = new Map<string, string>();
  const auxLabels = new Map<string, string>();

  for (const { row, at } of rows) {
    for (const f of MANDATORY) if (row[f].trim() === '') report(`Ligne ${at} : ${f} est obligatoire`);
    for (const f of ['EcritureDate', 'PieceDate', 'ValidDate'] as const)
      if (row[f] !== '' && !validDay(row[f])) report(`Ligne ${at} : ${f} « ${row[f]} » n’est pas une date AAAAMMJJ`);
    if (row.DateLet !== '' && !validDay(row.DateLet)) report(`Ligne ${at} : DateLet « ${row.DateLet} » n’est pas une date AAAAMMJJ`);
    if (closing && row.EcritureDate > closing) report(`Ligne ${at} : écriture du ${row.EcritureDate} après la clôture ${closing}`);
    if (opening && row.EcritureDate < opening) report(`Ligne ${at} : écriture du ${row.EcritureDate} avant l’ouverture ${opening}`);
    for (const f of ['Debit', 'Credit'] as const)
      if (!AMOUNT.test(row[f])) report(`Ligne ${at} : ${f} « ${row[f]} » n’est pas un montant (virgule décimale)`);
    if (row.Montantdevise !== '' && !AMOUNT.test(row.Montantdevise))
      report(`Ligne ${at} : Montantdevise « ${row.Montantdevise} » illisible`);
    if ((row.Montantdevise === '') !== (row.Idevise === '')) report(`Ligne ${at} : Montantdevise et Idevise vont ensemble`);
    if ((row.CompAuxNum === '') !== (row.CompAuxLib === '')) report(`Ligne ${at} : CompAuxNum et CompAuxLib vont ensemble`);
    const debit = AMOUNT.test(row.Debit) ? hundredths(row.Debit) : 0n;
    const credit = AMOUNT.test(row.Credit) ? hundredths(row.Credit) : 0n;
    if (debit !== 0n && credit !== 0n) report(`Ligne ${at} : un montant au débit ou au crédit, pas les deux`);
    if (debit < 0n || credit < 0n) report(`Ligne ${at} : montant négatif`);

    const account = accountLabels.get(row.CompteNum);
    if (account === undefined) accountLabels.set(row.CompteNum, row.CompteLib);
    else if (account !== row.CompteLib)
      report(`Ligne ${at} : le compte ${row.CompteNum} a deux libellés (« ${account} », « ${row.CompteLib} »)`);
    if (row.CompAuxNum !== '') {
      const aux = auxLabels.get(row.CompAuxNum);
      if (aux === undefined) auxLabels.set(row.CompAuxNum, row.CompAuxLib);
      else if (aux !== row.CompAuxLib)
        report(`Ligne ${at} : le compte auxiliaire ${row.CompAuxNum} a deux libellés (« ${aux} », « ${row.CompAuxLib} »)`);
    }

    const journal = journals.get(row.JournalCode) ?? { lib: row.JournalLib, debit: 0n, credit: 0n, order: [] };
    journals.set(row.JournalCode, journal);
    if (journal.lib !== row.JournalLib) report(`Ligne ${at} : le journal ${row.JournalCode} a deux libellés`);
    journal.debit += debit;
    journal.credit += credit;
    const key = `${row.JournalCode}\u0000${row.EcritureNum}`;
    const entry = entries.get(key);
    if (entry) {
      const last = entry.rows.at(-1);
      if (last && last.at !== at - 1) report(`Ligne ${at} : l’écriture ${row.EcritureNum} n’est pas d’un seul tenant`);
      entry.rows.push({ row, at });
    } else {
      entries.set(key, { rows: [{ row, at }] });
      journal.order.push(row.EcritureNum);
    }
  }

  for (const [key, entry] of entries) {
    const [journal, number] = key.split('\u0000');
    const first = entry.rows[0]?.row;
    let balance = 0n;
    for (const { row, at } of entry.rows) {
      if (AMOUNT.test(row.Debit) && AMOUNT.test(row.Credit)) balance += hundredths(row.Debit) - hundredths(row.Credit);
      if (first && (row.EcritureDate !== first.EcritureDate || row.PieceRef !== first.PieceRef || row.ValidDate !== first.ValidDate))
        report(`Ligne ${at} : l’écriture ${journal} ${number} change de date, de pièce ou de date de validation`);
    }
    if (balance !== 0n) report(`Écriture ${journal} ${number} déséquilibrée de ${balance} centimes`);
  }

  for (const [code, journal] of journals) {
    if (journal.debit !== journal.credit)
      report(`Journal ${code} déséquilibré : débit ${journal.debit}, crédit ${journal.credit} centimes`);
    // Numbers in sequence: each entry of a journal takes the next number, in the order of the file, with no gap.
    const numbers = journal.order.map((n) => /(\d+)$/.exec(n)?.[1]);
    numbers.forEach((n, i) => {
      if (n === undefined || Number(n) !== i + 1)
        report(`Journal ${code} : l’écriture ${journal.order[i]} n’est pas la n° ${i + 1} de la séquence`);
    });
    // Dates in order along the numbering: the sequence follows time.
    const dates = journal.order.map((n) => entries.get(`${code}\u0000${n}`)?.rows[0]?.row.EcritureDate ?? '');
    dates.forEach((d, i) => {
      const previous = dates[i - 1];
      if (i > 0 && previous !== undefined && d < previous) report(`Journal ${code} : l’écriture ${journal.order[i]} précède la précédente`);
    });
  }
  return problems;
}
