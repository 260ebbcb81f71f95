import { z } from 'zod';
import { uploadedFileSchema } from './answers';
import { csvMappingSchema, csvPreviewSchema } from './bank-csv';
import { compactAccountCode, ibanProblem, isValidBic } from '../iban';
import { decimalSchema } from './document';
import { INPUT_SCALE, toStoredUnits } from '../money';

export const bankAccountInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Nom du compte : obligatoire')
    .max(80, 'Nom du compte : 80 caractères au plus')
    .meta({ label: 'Nom du compte' }),
  iban: z
    .string({ error: 'IBAN : obligatoire' })
    .max(50, 'IBAN : 34 caractères au plus')
    .transform(compactAccountCode)
    .superRefine((iban, ctx) => {
      const problem = ibanProblem(iban);
      if (problem) ctx.addIssue({ code: 'custom', message: `IBAN invalide : ${problem}` });
    })
    .meta({ label: 'IBAN' }),
  bic: z
    .string()
    .max(20)
    .default('')
    .transform(compactAccountCode)
    .refine((bic) => bic === '' || isValidBic(bic), 'BIC invalide : 8 ou 11 caractères (ex. BNPAFRPPXXX)')
    .meta({ label: 'BIC' }),
  default: z.boolean().default(false).meta({ label: 'Compte par défaut' }),
});
export type BankAccountInput = z.infer<typeof bankAccountInputSchema>;

export const bankAccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  iban: z.string(),
  bic: z.string(),
  default: z.boolean(),
  /** Lines imported, and those still waiting for a decision (unmatched or suggested). */
  transactions: z.number().int(),
  to_review: z.number().int(),
  last_date: z.string().nullable(),
  /** The booked balance the latest statement states, and its date; null until a statement states one (camt.053, OFX). */
  statement_balance: z.number().nullable(),
  statement_balance_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BankAccount = z.infer<typeof bankAccountSchema>;

/**
 * A statement file to import. A CSV is read with `csv_mapping` when given (then remembered for the account), else
 * with the account's confirmed mapping, else with the mapping guessed from its header, which the call confirms (one
 * call imports, as for any other format). `csv_preview` is how a screen has the columns confirmed first: on an
 * account without confirmed columns (or whose columns the file no longer has) nothing is imported and the answer
 * gives the guessed mapping and a preview (`csv_mapping_required`).
 */
export const statementUploadSchema = uploadedFileSchema.extend({
  csv_mapping: csvMappingSchema
    .optional()
    .meta({ description: 'Colonnes d’un relevé CSV (0 pour la première colonne), confirmées et gardées pour le compte' }),
  csv_preview: z.boolean({ error: 'Aperçu des colonnes : oui ou non' }).optional().meta({
    description:
      'Sur un compte sans colonnes confirmées, n’importe rien et répond les colonnes devinées avec un aperçu (sans lui, le CSV est importé avec les colonnes devinées, gardées pour le compte)',
  }),
});

export const statementImportSchema = z.object({
  imported: z.number().int(),
  duplicates: z.number().int(),
  /** Lines with a sure suggestion, confirmed in one click by « Tout valider ». */
  matched: z.number().int(),
  /** Lines with at least one suggestion. */
  suggestions: z.number().int(),
  /** Malformed lines, not imported, with the reason. */
  rejected: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  format: z.string(),
  /** A CSV on an account without confirmed columns: nothing imported; confirm `csv_preview.mapping` and send again. */
  csv_mapping_required: z.boolean().optional(),
  csv_preview: csvPreviewSchema.optional(),
});

export const MATCH_KINDS = ['invoice', 'expense'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const suggestionSchema = z.object({
  kind: z.enum(MATCH_KINDS),
  id: z.number().int(),
  /** What the document would be paid: the line's share of it plus `fee`. */
  amount: z.number(),
  /** What a card processor or a bank kept on the way (« Montant net de frais de 1,45 € »); 0 when none. */
  fee: z.number(),
  /** Why, in French (« Référence RF… dans le libellé », « Montant exact et nom du client »). */
  reason: z.string(),
  /** 0 to 1; from 0.9 a suggestion is sure and « Tout valider » confirms it. */
  confidence: z.number(),
  /** The invoice's number or the expense's supplier, and what is left to pay on it. */
  label: z.string(),
  balance: z.number(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

export const SURE = 0.9;

export const BANK_STATUSES = ['unmatched', 'suggested', 'matched', 'ignored'] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

export const bankTransactionSchema = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  date: z.string(),
  amount: z.number(),
  currency: z.string(),
  label: z.string(),
  counterparty: z.string(),
  reference: z.string(),
  status: z.enum(BANK_STATUSES),
  /** What confirmed matches took of the amount (absolute). */
  allocated: z.number(),
  ignore_reason: z.string(),
  suggestions: z.array(suggestionSchema),
  /** What the line paid: `amount` is its share, `fee` what was kept on top of it (the document was paid both). */
  matches: z.array(z.object({ kind: z.enum(MATCH_KINDS), id: z.number().int(), amount: z.number(), fee: z.number(), label: z.string() })),
});
export type BankTransaction = z.infer<typeof bankTransactionSchema>;

export const bankTransactionQuerySchema = z.object({
  account_id: z.coerce.number().int().positive().optional().meta({ label: 'Compte' }),
  status: z.enum(BANK_STATUSES, { error: 'Statut : unmatched, suggested, matched ou ignored' }).optional().meta({ label: 'Statut' }),
  from: z.iso.date().optional().meta({ label: 'Du' }),
  to: z.iso.date().optional().meta({ label: 'Au' }),
  page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(25).meta({ label: 'Lignes par page' }),
});
export type BankTransactionQuery = z.infer<typeof bankTransactionQuerySchema>;

export const matchTargetSchema = z
  .object({
    kind: z.enum(MATCH_KINDS, { error: 'Type : invoice ou expense' }),
    id: z.coerce.number().int().positive('Identifiant invalide'),
    /** What the document is paid. */
    amount: decimalSchema('Montant', INPUT_SCALE, 1e12).refine((n) => n > 0, 'Le montant doit être positif'),
    /** What a processor or the bank kept of it: the line carries `amount − fee`. */
    fee: decimalSchema('Frais', INPUT_SCALE, 1e12)
      .refine((n) => n >= 0, 'Les frais ne peuvent pas être négatifs')
      .default(0)
      .meta({ label: 'Frais' }),
  })
  .refine((m) => toStoredUnits(m.fee) < toStoredUnits(m.amount), {
    message: 'Les frais doivent rester inférieurs au montant payé',
    path: ['fee'],
  });
export type MatchTarget = z.infer<typeof matchTargetSchema>;

export const matchInputSchema = z.object({
  matches: z
    .array(matchTargetSchema)
    .min(1, 'Choisissez au moins une facture ou une dépense')
    .max(50, 'Cinquante rapprochements au plus par ligne'),
});

/** An open invoice (for a credit) or an unpaid expense (for a debit) a line could pay, found by hand. */
export const matchCandidateSchema = z.object({
  kind: z.enum(MATCH_KINDS),
  id: z.number().int(),
  /** The invoice's number and customer, or the expense's supplier and invoice number. */
  label: z.string(),
  date: z.string(),
  currency: z.string(),
  /** What is left to pay on it. */
  balance: z.number(),
});
export type MatchCandidate = z.infer<typeof matchCandidateSchema>;

export const candidatesQuerySchema = z.object({
  q: z.string().trim().max(100, 'Recherche : 100 caractères au plus').default('').meta({ label: 'Recherche' }),
});

export const ignoreInputSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Indiquez pourquoi cette ligne est ignorée')
    .max(200, 'Raison : 200 caractères au plus')
    .meta({ label: 'Raison' }),
});

/**
 * The reconciliation of an account on the date of its latest stated balance (état de rapprochement): the bank's balance,
 * the statement lines the books do not hold yet, the book movements no statement line carries, and the balance the
 * books give. Amounts signed, a receipt positive.
 */
export const bankReconciliationSchema = z.object({
  account_id: z.number().int(),
  currency: z.string(),
  /** null until a statement states a balance (camt.053, OFX): nothing to reconcile against. */
  statement: z.object({ date: z.string(), balance: z.number() }).nullable(),
  /** The balance before the first imported line, as the statement's balance and lines imply it. */
  opening: z.object({ date: z.string(), balance: z.number() }).nullable(),
  /** Lines up to the statement's date whose amount the books do not hold (all of it, or what is left of it). */
  not_in_books: z.array(
    z.object({ id: z.number().int(), date: z.string(), label: z.string(), amount: z.number(), status: z.string(), reason: z.string() }),
  ),
  /** Payments received and expenses paid through the bank, since the first line, that no statement line carries. */
  not_on_statement: z.array(
    z.object({ kind: z.enum(['invoice', 'expense']), id: z.number().int(), date: z.string(), label: z.string(), amount: z.number() }),
  ),
  /** Opening balance plus every movement the books hold up to the statement's date. */
  book_balance: z.number().nullable(),
  /** Statement balance minus book balance: the sum of the lines above, each explaining its part. */
  difference: z.number().nullable(),
});
export type BankReconciliation = z.infer<typeof bankReconciliationSchema>;
