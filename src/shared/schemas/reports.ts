import { z } from 'zod';
import { hasAtMostDecimals } from '../money';

/** The statistics (/reports). Amounts are in the base currency, converted at each document's rate of issue. */

export const REPORT_GROUPS = ['month', 'quarter', 'year'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
/** Longer periods would only be slow to compute and unreadable to draw. */
export const REPORT_MAX_YEARS = 10;

export const dateField = (label: string) => z.iso.date({ error: `${label} : date attendue au format AAAA-MM-JJ` }).meta({ label });

const isoDate = z.iso.date();

/** A period, checked once for every report: from ≤ to, at most ten years. */
export function checkPeriod(value: { from: string; to: string }, ctx: z.RefinementCtx) {
  // Zod still runs this after a field failed: a wrong date is already said, comparing it would only add noise.
  if (!isoDate.safeParse(value.from).success || !isoDate.safeParse(value.to).success) return;
  if (value.from > value.to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'Période : la date de fin (Au) doit suivre la date de début (Du)' });
    return;
  }
  const limit = `${Number(value.from.slice(0, 4)) + REPORT_MAX_YEARS}${value.from.slice(4)}`;
  if (value.to >= limit)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `Période : ${REPORT_MAX_YEARS} ans au plus entre Du et Au` });
}

export const reportPeriodSchema = z.object({ from: dateField('Du'), to: dateField('Au') }).superRefine(checkPeriod);

export const turnoverQuerySchema = z
  .object({
    from: dateField('Du'),
    to: dateField('Au'),
    group: z
      .enum(REPORT_GROUPS, { error: 'Regroupement : « month », « quarter » ou « year »' })
      .default('month')
      .meta({ label: 'Regroupement' }),
  })
  .superRefine(checkPeriod);

const amount = z.number();

export const turnoverReportSchema = z.object({
  currency: z.string(),
  data: z.array(z.object({ period: z.string(), count: z.number().int(), net: amount, tax: amount, total: amount })),
});

const vatLineSchema = z.object({ rate: z.number(), base: amount, amount: amount });
/** A line of the CA3 return (formulaire 3310-CA3): its number, its label, the base and the tax where it has them. */
const ca3LineSchema = z.object({ line: z.string(), label: z.string(), base: amount.nullable(), amount: amount });

const optionalCredit = (label: string) =>
  z
    .preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.coerce
        .number({ error: `${label} : un nombre est attendu` })
        .min(0, `${label} : un montant positif ou nul est attendu`)
        .refine((n) => hasAtMostDecimals(n, 2), `${label} : deux décimales au plus`)
        .optional(),
    )
    .meta({ label });

/** The VAT return's period, and what the user brings from outside Facturier: last return's credit, a refund asked. */
export const vatQuerySchema = z
  .object({
    from: dateField('Du'),
    to: dateField('Au'),
    previous_credit: optionalCredit('Crédit reporté (ligne 22)'),
    refund: optionalCredit('Remboursement demandé (ligne 26)'),
  })
  .superRefine(checkPeriod);
export type VatQuery = z.infer<typeof vatQuerySchema>;

/** An operation behind a line of the return: a document's or an expense's share of it in the period. */
const vatItemSchema = z.object({
  line: z.string(),
  source: z.enum(['invoice', 'credit', 'expense']),
  id: z.number().int(),
  reference: z.string(),
  party: z.string(),
  /** The day the VAT became due (issue, payment, credit note) or deductible (invoice, payment of a service). */
  date: z.string(),
  nature: z.enum(['goods', 'services']).nullable(),
  /** Why it falls in this period, in French. */
  basis: z.string(),
  rate: z.number(),
  base: amount,
  tax: amount,
  /** VAT self-assessed on a purchase: an intra-community acquisition of goods, services from abroad. */
  reverse_charge: z.enum(['goods', 'services']).nullable(),
});

export const vatReportSchema = z.object({
  currency: z.string(),
  /** 'debits': VAT due when invoiced; 'receipts': on services, when paid (Paramètres → option sur les débits). */
  basis: z.enum(['debits', 'receipts']),
  collected: z.array(vatLineSchema),
  deductible: z.array(vatLineSchema),
  /** Collected − deductible: positive is owed, negative a credit. */
  due: amount,
  /** Cadre B's lines that have something, the totals always. */
  ca3: z.array(ca3LineSchema),
  /** Every line of the return (shared/vat-return/ca3-lines.ts), cadre A and B, each with the operations behind it. */
  lines: z.array(
    z.object({
      code: z.string(),
      frame: z.enum(['A', 'B']),
      label: z.string(),
      base: amount.nullable(),
      tax: amount.nullable(),
      /** The operations on the line itself. */
      items: z.array(vatItemSchema),
      /** A total's lines, whose items make it up (A1 and 16: 08 to T; 23: 19 and 20): each operation is given once. */
      sums: z.array(z.string()),
    }),
  ),
  /** Present (true) when the period has too many operations to list: the lines give their totals and no items. */
  items_omitted: z.literal(true).optional(),
});

export const receivablesReportSchema = z.object({
  currency: z.string(),
  buckets: z.array(z.object({ label: z.string(), count: z.number().int(), amount })),
  total: amount,
  /**
   * Days sales outstanding: receivables ÷ invoiced TTC over the period × its days. The period is the last 365 days, or
   * since the first invoice when more recent; null under 30 days of billing history or without sales in the period.
   */
  dso: z.number().int().nullable(),
  /** The days of that period; null when the DSO is. */
  dso_days: z.number().int().nullable(),
  late_customers: z.array(
    z.object({ customer_id: z.number().nullable(), name: z.string(), count: z.number().int(), amount, oldest: z.string() }),
  ),
});

export const rankingReportSchema = z.object({
  currency: z.string(),
  /** The ten largest, by turnover HT; the others summed in `rest`. */
  data: z.array(z.object({ id: z.number().nullable(), name: z.string(), count: z.number().int(), net: amount })),
  rest: z.object({ count: z.number().int(), net: amount }),
});

export const marginReportSchema = z.object({
  currency: z.string(),
  data: z.array(z.object({ period: z.string(), turnover: amount, expenses: amount, margin: amount })),
});

/** Rows of the livre des recettes per page: a year of a micro-entrepreneur fits in one; a busy shop pages. */
export const RECEIPTS_PER_PAGE = 1000;

export const receiptsQuerySchema = z
  .object({
    from: dateField('Du'),
    to: dateField('Au'),
    page: z.coerce
      .number({ error: 'Page : un nombre attendu' })
      .int('Page : un nombre entier attendu')
      .min(1, 'Page : 1 au moins')
      .default(1)
      .meta({ label: 'Page' }),
  })
  .superRefine(checkPeriod);

export const receiptsBookSchema = z.object({
  currency: z.string(),
  /** Receipts of the whole period, the page's rows being `data`. */
  count: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  data: z.array(
    z.object({ date: z.string(), customer: z.string(), document: z.string(), amount, method: z.string(), currency: z.string() }),
  ),
  /** Of the whole period, not of the page. */
  total: amount,
});

export const urssafQuerySchema = z
  .object({
    from: dateField('Du'),
    to: dateField('Au'),
    group: z
      .enum(['month', 'quarter'], { error: 'Regroupement : « month » ou « quarter » (la périodicité de la déclaration URSSAF)' })
      .default('month')
      .meta({ label: 'Regroupement' }),
  })
  .superRefine(checkPeriod);

const natureSplit = z.object({ goods: amount, services: amount, total: amount });

export const urssafReportSchema = z.object({
  currency: z.string(),
  /** Receipts to declare per month or quarter, split sales of goods / services. */
  data: z.array(natureSplit.extend({ period: z.string() })),
  /** The calendar year of `to`, from 1 January to `to`, against the franchise thresholds. */
  year: natureSplit.extend({
    year: z.number().int(),
    thresholds: z.object({ goods: amount, services: amount }),
    /** Share of each threshold reached, in per cent (one decimal). */
    reached: z.object({ goods: z.number(), services: z.number() }),
  }),
});
