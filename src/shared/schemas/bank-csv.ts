import { z } from 'zod';

/** The date formats French banks write in their CSV exports, as the user reads them (« JJ/MM/AAAA »). */
export const CSV_DATE_FORMATS = ['DD/MM/YYYY', 'DD/MM/YY', 'YYYY-MM-DD', 'YYYYMMDD'] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];
export const CSV_DATE_FORMAT_LABELS: Record<CsvDateFormat, string> = {
  'DD/MM/YYYY': 'JJ/MM/AAAA',
  'DD/MM/YY': 'JJ/MM/AA',
  'YYYY-MM-DD': 'AAAA-MM-JJ',
  YYYYMMDD: 'AAAAMMJJ',
};

export const CSV_DECIMAL_SEPARATORS = [',', '.'] as const;
export const CSV_ENCODINGS = ['utf-8', 'windows-1252'] as const;

/** What a column of the statement holds; `details` are appended to the label, `ignored` columns are not read. */
export const CSV_COLUMN_ROLES = ['date', 'value_date', 'label', 'details', 'amount', 'debit', 'credit', 'ignored'] as const;
export type CsvColumnRole = (typeof CSV_COLUMN_ROLES)[number];
export const CSV_COLUMN_ROLE_LABELS: Record<CsvColumnRole, string> = {
  date: 'Date d’opération',
  value_date: 'Date de valeur',
  label: 'Libellé',
  details: 'Détail (ajouté au libellé)',
  amount: 'Montant',
  debit: 'Débit',
  credit: 'Crédit',
  ignored: 'Ignorée',
};

const column = (label: string) =>
  z
    .number({ error: `${label} : numéro de colonne attendu (0 pour la première)` })
    .int(`${label} : numéro de colonne attendu (0 pour la première)`)
    .min(0, `${label} : numéro de colonne attendu (0 pour la première)`)
    .max(59, `${label} : 60 colonnes au plus`)
    .meta({ label });

/**
 * Which column of a bank CSV holds what (0 for the first column), and how its dates, amounts and characters are
 * written. One signed amount column, or a debit and a credit column.
 */
export const csvMappingSchema = z
  .object({
    date: column('Date d’opération'),
    value_date: column('Date de valeur').nullable().default(null),
    label: column('Libellé'),
    details: z.array(column('Détail')).max(10).default([]),
    amount: column('Montant').nullable().default(null),
    debit: column('Débit').nullable().default(null),
    credit: column('Crédit').nullable().default(null),
    date_format: z.enum(CSV_DATE_FORMATS, { error: `Format de date : ${CSV_DATE_FORMATS.join(', ')}` }).default('DD/MM/YYYY'),
    decimal_separator: z.enum(CSV_DECIMAL_SEPARATORS, { error: 'Séparateur décimal : « , » ou « . »' }).default(','),
    encoding: z.enum(CSV_ENCODINGS, { error: 'Encodage : utf-8 ou windows-1252' }).default('utf-8'),
  })
  .refine((m) => m.amount !== null || (m.debit !== null && m.credit !== null), {
    message: 'Colonnes du relevé : il faut une colonne Montant, ou une colonne Débit et une colonne Crédit',
    path: ['amount'],
  });
export type CsvMapping = z.output<typeof csvMappingSchema>;

/** The role of each column of the file under a mapping: the selects of the « Colonnes du relevé » dialog. */
export function columnRoles(mapping: CsvMapping, columns: number): CsvColumnRole[] {
  return Array.from({ length: columns }, (_, i) => {
    if (i === mapping.date) return 'date';
    if (i === mapping.value_date) return 'value_date';
    if (i === mapping.label) return 'label';
    if (i === mapping.amount) return 'amount';
    if (i === mapping.debit) return 'debit';
    if (i === mapping.credit) return 'credit';
    if (mapping.details.includes(i)) return 'details';
    return 'ignored';
  });
}

/**
 * The mapping the roles chosen per column say, or the French reason it cannot be one. A role other than `details`
 * and `ignored` belongs to one column at most.
 */
export function mappingOfRoles(
  roles: CsvColumnRole[],
  formats: Pick<CsvMapping, 'date_format' | 'decimal_separator' | 'encoding'>,
): { ok: true; mapping: CsvMapping } | { ok: false; message: string } {
  const only = (role: CsvColumnRole) => {
    const at = roles.flatMap((r, i) => (r === role ? [i] : []));
    return at.length > 1 ? 'twice' : (at[0] ?? null);
  };
  const single = ['date', 'value_date', 'label', 'amount', 'debit', 'credit'] as const;
  const found: Record<string, number | null> = {};
  for (const role of single) {
    const at = only(role);
    if (at === 'twice') return { ok: false, message: `« ${CSV_COLUMN_ROLE_LABELS[role]} » est choisie pour plusieurs colonnes` };
    found[role] = at;
  }
  if (found.date === null) return { ok: false, message: 'Choisissez la colonne de la date d’opération' };
  if (found.label === null) return { ok: false, message: 'Choisissez la colonne du libellé' };
  if (found.amount === null && (found.debit === null || found.credit === null))
    return { ok: false, message: 'Choisissez une colonne Montant, ou une colonne Débit et une colonne Crédit' };
  if (found.amount !== null && (found.debit !== null || found.credit !== null))
    return { ok: false, message: 'Choisissez une colonne Montant ou des colonnes Débit et Crédit, pas les deux' };
  return {
    ok: true,
    mapping: {
      date: found.date ?? 0,
      value_date: found.value_date ?? null,
      label: found.label ?? 0,
      details: roles.flatMap((r, i) => (r === 'details' ? [i] : [])),
      amount: found.amount ?? null,
      debit: found.debit ?? null,
      credit: found.credit ?? null,
      ...formats,
    },
  };
}

/** A CSV statement's first lines as a mapping reads them: what the user confirms before anything is imported. */
export const csvPreviewSchema = z.object({
  /** The header line's cells, one per column. */
  header: z.array(z.string()),
  /** The mapping guessed from the header (or the one remembered for the account, when it no longer fits the file). */
  mapping: csvMappingSchema,
  rows: z.array(
    z.object({
      line: z.number().int(),
      cells: z.array(z.string()),
      date: z.string().nullable(),
      amount: z.number().nullable(),
      label: z.string(),
      /** Why the mapping does not read this line (French); null when it does. */
      problem: z.string().nullable(),
    }),
  ),
  /** Data lines in the file. */
  lines: z.number().int(),
});
export type CsvPreview = z.infer<typeof csvPreviewSchema>;
