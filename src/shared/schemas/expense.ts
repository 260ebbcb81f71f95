import { z } from 'zod';
import { PAYMENT_METHODS } from '../status';
import { add, money } from '../money';
import { EXPENSE_SORT_FIELDS, PERIODS } from '../list-fields';
import { decimalSchema } from './document';
import { sirenOrSiretField, supplierTaxIdField } from './fields';
import { listAnswer, uploadedFileSchema, writeAnswer } from './answers';
import { FREQUENCIES } from '../recurrence';
import { EXPENSE_STATUSES } from '../expense-statuses';

const METHODS = Object.keys(PAYMENT_METHODS) as [keyof typeof PAYMENT_METHODS, ...(keyof typeof PAYMENT_METHODS)[]];
export { EXPENSE_STATUSES, EXPENSE_STATUS_LABELS } from '../expense-statuses';

const isoDate = (label: string) => z.iso.date({ error: `${label} : date attendue au format AAAA-MM-JJ` }).meta({ label });
const optionalDate = (label: string) =>
  z.preprocess((v) => (v === '' ? null : v), isoDate(label).nullable().optional().default(null)).meta({ label });

/** A supplier's credit is typed positive and flagged as such: a minus sign is never how it is said. */
const CREDIT_NOTE_HINT = 'pour un remboursement ou une remise du fournisseur, cochez « Avoir fournisseur »';

/** One VAT rate of an expense: the VAT paid at that rate, and whether it may be deducted (CGI art. 271). */
const vatRowSchema = (negative: string) =>
  z.object({
    rate: decimalSchema('Taux de TVA', 2, 100)
      .refine((n) => n >= 0, 'Taux de TVA : 0 % au moins')
      .meta({ label: 'Taux de TVA' }),
    amount: decimalSchema('Montant de TVA', 2)
      .refine((n) => n >= 0, negative)
      .meta({ label: 'Montant de TVA' }),
    deductible: z.boolean({ error: 'TVA déductible : oui ou non' }).default(true).meta({ label: 'TVA déductible' }),
  });
export const expenseVatSchema = vatRowSchema('Montant de TVA : il ne peut pas être négatif');
export type ExpenseVat = z.infer<typeof expenseVatSchema>;

/** An expense, or a supplier's credit note (« avoir fournisseur ») that takes its amounts off the expenses. */
export const EXPENSE_KINDS = ['expense', 'credit_note'] as const;
export type ExpenseKind = (typeof EXPENSE_KINDS)[number];
export const EXPENSE_KIND_LABELS: Record<ExpenseKind, string> = { expense: 'Dépense', credit_note: 'Avoir' };

/**
 * VAT the buyer self-assesses (autoliquidation): an intra-community acquisition of goods (CGI art. 256 bis) or services
 * from a business not established in France (CGI art. 283-2). The VAT rows then hold the VAT owed and deducted by the
 * buyer, none of it paid to the supplier.
 */
export const REVERSE_CHARGES = ['', 'goods', 'services'] as const;
export type ReverseCharge = (typeof REVERSE_CHARGES)[number];
export const REVERSE_CHARGE_LABELS: Record<ReverseCharge, string> = {
  '': 'Non : TVA facturée par le fournisseur',
  goods: 'Acquisition intracommunautaire de biens',
  services: 'Services d’un prestataire établi hors de France',
};

/** The fields an expense and a recurring expense share: who was paid, for what, how much (TTC) and its VAT. */
export const expenseBaseShape = {
  supplier: z
    .string({ error: 'Le fournisseur est obligatoire' })
    .trim()
    .min(1, 'Le fournisseur est obligatoire')
    .max(200, 'Fournisseur : 200 caractères au plus')
    .meta({ label: 'Fournisseur' }),
  category: z
    .string({ error: 'La catégorie est obligatoire' })
    .trim()
    .min(1, 'La catégorie est obligatoire')
    .max(100, 'Catégorie : 100 caractères au plus')
    .meta({ label: 'Catégorie' }),
  label: z.string().trim().max(300, 'Libellé : 300 caractères au plus').default('').meta({ label: 'Libellé' }),
  amount: decimalSchema('Montant TTC', 2, 1e10, 'Montant TTC : un nombre est attendu (ex. 120,50)')
    .refine((n) => n > 0, 'Montant TTC : il doit être positif')
    .meta({ label: 'Montant TTC' }),
  vat: z.array(expenseVatSchema).max(10, 'TVA : dix taux au plus').default([]).meta({ label: 'TVA' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Devise : code ISO de 3 lettres')
    .default('EUR')
    .meta({ label: 'Devise' }),
  payment_method: z
    .enum(METHODS, { error: 'Moyen de paiement : virement, chèque, carte ou espèces' })
    .default('transfer')
    .meta({ label: 'Moyen de paiement' }),
  note: z.string().max(5000, 'Note : 5000 caractères au plus').default('').meta({ label: 'Note' }),
};

/** VAT is part of the TTC amount: it cannot exceed it, and a rate appears once. */
export function checkVat(e: { amount: number; vat: ExpenseVat[] }, ctx: z.RefinementCtx): void {
  const vatTotal = add(...e.vat.map((v) => v.amount));
  // A negative amount is already refused by its own field: one message per mistake.
  if (e.amount > 0 && vatTotal.gt(money(e.amount)))
    ctx.addIssue({ code: 'custom', path: ['vat'], message: 'TVA : le total de la TVA dépasse le montant TTC' });
  const rates = e.vat.map((v) => v.rate);
  if (new Set(rates).size !== rates.length) ctx.addIssue({ code: 'custom', path: ['vat'], message: 'TVA : chaque taux une seule fois' });
}

/** An expense as the form, the API and the e-invoice import send it. */
export const expenseInputSchema = z
  .object({
    date: isoDate('Date'),
    ...expenseBaseShape,
    amount: decimalSchema('Montant TTC', 2, 1e10, 'Montant TTC : un nombre est attendu (ex. 120,50)')
      .refine((n) => n > 0, `Montant TTC : il doit être positif ; ${CREDIT_NOTE_HINT}`)
      .meta({ label: 'Montant TTC' }),
    vat: z
      .array(vatRowSchema(`Montant de TVA : il ne peut pas être négatif ; ${CREDIT_NOTE_HINT}`))
      .max(10, 'TVA : dix taux au plus')
      .default([])
      .meta({ label: 'TVA' }),
    kind: z
      .enum(EXPENSE_KINDS, { error: 'Type : expense (dépense) ou credit_note (avoir fournisseur)' })
      .default('expense')
      .meta({ label: 'Type' }),
    reverse_charge: z
      .enum(REVERSE_CHARGES, {
        error: 'Autoliquidation : vide (aucune), goods (acquisition intracommunautaire) ou services (prestataire établi hors de France)',
      })
      .default('')
      .meta({ label: 'Autoliquidation' }),
    /** BT-25: the supplier invoice a credit note corrects, by its number. */
    preceding_invoice_number: z
      .string()
      .trim()
      .max(100, 'Facture corrigée : 100 caractères au plus')
      .default('')
      .meta({ label: 'Facture corrigée' }),
    supplier_siren: sirenOrSiretField().meta({ label: 'SIREN du fournisseur' }),
    supplier_vat_number: supplierTaxIdField().meta({ label: 'N° TVA du fournisseur' }),
    /** ISO 3166 alpha-2 of the supplier's address ('' unknown): whose VAT it charges. */
    supplier_country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{2})?$/, 'Pays du fournisseur : code ISO de 2 lettres (ex. NL)')
      .default('')
      .meta({ label: 'Pays du fournisseur' }),
    /** BT-113: what the invoice says was already paid (a deposit, a card payment at order). */
    prepaid_amount: decimalSchema('Déjà payé', 2, 1e10, 'Déjà payé : un nombre est attendu (ex. 120,50)')
      .refine((n) => n >= 0, 'Déjà payé : il ne peut pas être négatif')
      .default(0)
      .meta({ label: 'Déjà payé' }),
    /** BT-20: the payment terms as the supplier wrote them. */
    payment_terms: z
      .string()
      .trim()
      .max(500, 'Conditions de paiement : 500 caractères au plus')
      .default('')
      .meta({ label: 'Conditions de paiement' }),
    invoice_number: z.string().trim().max(100, 'N° de facture : 100 caractères au plus').default('').meta({ label: 'N° de facture' }),
    due_date: optionalDate('Échéance'),
    status: z.enum(EXPENSE_STATUSES, { error: 'Statut : paid ou unpaid' }).default('unpaid').meta({ label: 'Statut' }),
    paid_at: optionalDate('Payée le'),
    tags: z
      .array(z.string().trim().min(1).max(40, 'Étiquette : 40 caractères au plus'))
      .max(20, 'Vingt étiquettes au plus')
      .default([])
      .meta({ label: 'Étiquettes' }),
  })
  .superRefine((e, ctx) => {
    checkVat(e, ctx);
    if (e.prepaid_amount > e.amount && e.amount > 0)
      ctx.addIssue({ code: 'custom', path: ['prepaid_amount'], message: 'Déjà payé : il dépasse le montant TTC' });
    if (e.kind === 'expense' && e.preceding_invoice_number)
      ctx.addIssue({
        code: 'custom',
        path: ['preceding_invoice_number'],
        message: 'Facture corrigée : seul un avoir fournisseur corrige une facture',
      });
  });
export type ExpenseInput = z.input<typeof expenseInputSchema>;
export type Expense = z.infer<typeof expenseInputSchema>;

export { EXPENSE_SORT_FIELDS };

const optionalAmount = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number({ error: `${label} : un nombre est attendu` }).optional());

/** The list's query: the documents list's conventions (period, search, amount, sort, page). */
export const expenseListQuerySchema = z.object({
  search: z.string().trim().max(200).optional().meta({ label: 'Recherche' }),
  period: z.enum(PERIODS, { error: 'Période inconnue' }).optional().meta({ label: 'Période' }),
  from: z.iso.date({ error: 'Du : date attendue au format AAAA-MM-JJ' }).optional().meta({ label: 'Du' }),
  to: z.iso.date({ error: 'Au : date attendue au format AAAA-MM-JJ' }).optional().meta({ label: 'Au' }),
  category: z.string().trim().max(100).optional().meta({ label: 'Catégorie' }),
  supplier: z.string().trim().max(200).optional().meta({ label: 'Fournisseur' }),
  status: z.enum(EXPENSE_STATUSES, { error: 'Statut : paid ou unpaid' }).optional().meta({ label: 'Statut' }),
  kind: z.enum(EXPENSE_KINDS, { error: 'Type : expense ou credit_note' }).optional().meta({ label: 'Type' }),
  /** « Catégorie à vérifier »: the imported expenses whose category the user has not confirmed yet. */
  to_check: z
    .preprocess((v) => (v === '' || v === undefined ? undefined : v === true || v === 'true' || v === '1'), z.boolean().optional())
    .meta({ label: 'Catégorie à vérifier' }),
  min_amount: optionalAmount('Montant minimum').meta({ label: 'Montant minimum' }),
  max_amount: optionalAmount('Montant maximum').meta({ label: 'Montant maximum' }),
  sort_by: z.enum(EXPENSE_SORT_FIELDS, { error: 'Tri inconnu' }).default('date').meta({ label: 'Tri' }),
  sort_order: z.enum(['asc', 'desc'], { error: 'Ordre de tri : asc ou desc' }).default('desc').meta({ label: 'Ordre de tri' }),
  page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
  per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(10).meta({ label: 'Lignes par page' }),
});
export type ExpenseListQuery = z.infer<typeof expenseListQuerySchema>;

export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
/** A receipt uploaded by hand is one of the first four; `application/xml` only comes from a supplier's e-invoice import. */
export const RECEIPT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'application/xml'] as const;
export type ReceiptType = (typeof RECEIPT_TYPES)[number];

/** A receipt as the browser sends it: its name and a data: URL; its real type is read from its bytes. */
export const receiptUploadSchema = z.object({
  filename: z
    .string({ error: 'Justificatif : le nom du fichier est attendu' })
    .trim()
    .min(1, 'Justificatif : le nom du fichier est attendu')
    .max(200)
    .meta({ label: 'Justificatif' }),
  data_url: z
    .string({ error: 'Justificatif : le contenu du fichier est attendu' })
    .regex(/^data:[^,]*;base64,/, 'Justificatif : contenu attendu en data URL base64')
    .meta({ label: 'Justificatif' }),
});

/** A supplier's e-invoice to import (`POST /api/expenses/import`). */
export const expenseImportSchema = uploadedFileSchema;

// Answers.

export const expenseReceiptSchema = z.object({ filename: z.string(), content_type: z.string(), size: z.number().int() }).nullable();

export const expenseSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  supplier: z.string(),
  supplier_siren: z.string(),
  supplier_vat_number: z.string(),
  supplier_country: z.string(),
  prepaid_amount: z.number(),
  payment_terms: z.string(),
  /** Why VAT rows are not deductible when the supplier charged another country's VAT ('' otherwise). */
  vat_note: z.string(),
  category: z.string(),
  category_label: z.string(),
  category_account: z.string(),
  label: z.string(),
  amount: z.number(),
  vat: z.array(z.object({ rate: z.number(), amount: z.number(), deductible: z.boolean() })),
  vat_total: z.number(),
  deductible_vat: z.number(),
  net: z.number(),
  currency: z.string(),
  payment_method: z.string(),
  status: z.enum(EXPENSE_STATUSES),
  paid_at: z.string().nullable(),
  due_date: z.string().nullable(),
  invoice_number: z.string(),
  note: z.string(),
  tags: z.array(z.string()),
  receipt: expenseReceiptSchema,
  /** 'einvoice': an e-invoice file imported by hand; 'platform': a supplier invoice received from the Plateforme Agréée. */
  source: z.enum(['manual', 'recurring', 'einvoice', 'platform']),
  recurring_id: z.number().int().nullable(),
  /** A credit note's amounts (amount, VAT, net) are negative: they come off the expenses. */
  kind: z.enum(EXPENSE_KINDS),
  /** VAT self-assessed by the buyer: its rows are then owed and deducted, its `vat_total` nil. */
  reverse_charge: z.enum(REVERSE_CHARGES),
  preceding_invoice_number: z.string(),
  /** The expense (supplier invoice) a credit note corrects, when found among the organisation's. */
  corrects: z.object({ id: z.number().int(), invoice_number: z.string(), date: z.string() }).nullable(),
  /** An imported expense whose category the user has not confirmed yet (« Vérifiez la catégorie »). */
  category_to_check: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ExpenseRecord = z.infer<typeof expenseSchema>;

/** The sums of the filtered set, one line per currency (amounts are never added across currencies). */
export const expenseSumsSchema = z.array(
  z.object({ currency: z.string(), count: z.number().int(), amount: z.number(), vat: z.number(), deductible_vat: z.number() }),
);

export const expenseListSchema = listAnswer(expenseSchema).extend({ sums: expenseSumsSchema });
export const expenseWriteSchema = writeAnswer(expenseSchema);

export const expenseCategorySchema = z.object({
  code: z.string(),
  label: z.string(),
  account: z.string(),
  /** Kept for the expenses that use it, out of the pickers. */
  archived: z.boolean(),
});
export type ExpenseCategory = z.infer<typeof expenseCategorySchema>;

export const expenseCategoryInputSchema = z.object({
  code: z.string().trim().max(60).optional().meta({ label: 'Code' }),
  label: z
    .string({ error: 'Le nom de la catégorie est obligatoire' })
    .trim()
    .min(1, 'Le nom de la catégorie est obligatoire')
    .max(100)
    .meta({ label: 'Catégorie' }),
  // A fixed asset bought (class 2: 20 intangible, 21 tangible) is an expense of its own kind: its VAT is deducted on
  // line 19 of the CA3, not 20 (vat-return/purchases.ts).
  account: z
    .string({ error: 'Compte : six chiffres de la classe 6 ou 2 attendus' })
    .regex(
      /^(6\d{2,7}|2[01]\d{1,6})$/,
      'Compte : un compte de charges de la classe 6 (ex. 606400) ou d’immobilisations de la classe 2 (ex. 218300)',
    )
    .meta({ label: 'Compte' }),
});

/** The figures the reports read: expenses per month and deductible VAT per rate, by expense date. */
export const expenseFiguresSchema = z.object({
  months: z.array(
    z.object({
      month: z.string(),
      currency: z.string(),
      count: z.number().int(),
      amount: z.number(),
      net: z.number(),
      vat: z.number(),
      deductible_vat: z.number(),
    }),
  ),
  deductible: z.array(z.object({ rate: z.number(), base: z.number(), amount: z.number() })),
});

// Recurring expenses.

export const recurringExpenseInputSchema = z
  .object({
    ...expenseBaseShape,
    frequency: z
      .enum(FREQUENCIES, { error: 'Fréquence : weekly, monthly, quarterly ou yearly' })
      .default('monthly')
      .meta({ label: 'Fréquence' }),
    start_date: isoDate('Date de début'),
    end_date: optionalDate('Date de fin'),
    paused: z.boolean({ error: 'En pause : oui ou non' }).default(false).meta({ label: 'En pause' }),
  })
  .superRefine((r, ctx) => {
    checkVat(r, ctx);
    if (r.end_date && r.end_date < r.start_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Date de fin : elle précède la date de début' });
  });
export type RecurringExpenseInput = z.input<typeof recurringExpenseInputSchema>;
export type RecurringExpense = z.infer<typeof recurringExpenseInputSchema>;

export const recurringExpenseSchema = z.object({
  id: z.number().int(),
  supplier: z.string(),
  category: z.string(),
  category_label: z.string(),
  label: z.string(),
  amount: z.number(),
  vat: z.array(z.object({ rate: z.number(), amount: z.number(), deductible: z.boolean() })),
  currency: z.string(),
  payment_method: z.string(),
  note: z.string(),
  frequency: z.enum(FREQUENCIES),
  start_date: z.string(),
  end_date: z.string().nullable(),
  paused: z.boolean(),
  generated_until: z.string().nullable(),
  /** The next occurrence to be made (null once the end date is passed). */
  next_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RecurringExpenseRecord = z.infer<typeof recurringExpenseSchema>;
export const recurringExpenseListSchema = listAnswer(recurringExpenseSchema);
export const recurringExpenseWriteSchema = writeAnswer(recurringExpenseSchema);
