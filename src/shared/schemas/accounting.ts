import { z } from 'zod';

const account = (label: string, fallback: string) =>
  z
    .string({ error: `${label} : un numéro de compte est attendu` })
    .trim()
    .regex(/^\d{3,12}$/, `${label} : un numéro de compte de 3 à 12 chiffres (ex. ${fallback})`)
    .default(fallback)
    .meta({ label });

/**
 * The general-ledger accounts the FEC books sales, purchases and payments to (Plan comptable général defaults); the
 * accountant may ask for others. Customers get one auxiliary account each under `customers` (their customer number),
 * suppliers under `suppliers` (their SIREN, VAT number or name).
 */
export const accountingSettingsSchema = z
  .object({
    customers: account('Compte clients', '411'),
    services: account('Ventes de prestations de services', '706'),
    goods: account('Ventes de marchandises', '707'),
    shipping: account('Frais de port facturés', '708'),
    deposits: account('Acomptes reçus', '4191'),
    vat: account('TVA collectée', '44571'),
    vat_on_receipts: account('TVA collectée sur encaissements', '44574'),
    bank: account('Banque', '512'),
    suppliers: account('Compte fournisseurs', '401'),
    deductible_vat: account('TVA déductible', '44566'),
    deductible_vat_on_receipts: account('TVA déductible sur encaissements', '44564'),
    self_assessed_vat: account('TVA autoliquidée', '4452'),
    fees: account('Frais bancaires', '627'),
    suspense: account('Opérations en attente', '471'),
    /**
     * The closing date of the first fiscal year (YYYY-MM-DD); later years close on the same day each year. Null: the
     * calendar year.
     */
    first_closing_date: z
      .preprocess(
        (v) => (v === '' || v === undefined ? null : v),
        z.iso.date({ error: 'Date de clôture du premier exercice : date attendue au format AAAA-MM-JJ' }).nullable(),
      )
      .default(null)
      .meta({ label: 'Date de clôture du premier exercice' }),
  })
  .strict();
export type AccountingSettings = z.infer<typeof accountingSettingsSchema>;

export const defaultAccountingSettings = (): AccountingSettings => accountingSettingsSchema.parse({});

export const FEC_YEAR_MIN = 2000;
export const FEC_YEAR_MAX = 2100;
const YEAR_ERROR = `Année : un nombre entier entre ${FEC_YEAR_MIN} et ${FEC_YEAR_MAX} est attendu (ex. 2026)`;

/**
 * `GET /api/exports/fec?year=`: the fiscal year closing in that calendar year (a query string gives text). Without
 * any query the door passes no input at all: the year is then named as missing, like a wrong one.
 */
export const fecQuerySchema = z
  .object({
    year: z.coerce
      .number({ error: YEAR_ERROR })
      .int(YEAR_ERROR)
      .min(FEC_YEAR_MIN, YEAR_ERROR)
      .max(FEC_YEAR_MAX, YEAR_ERROR)
      .meta({ label: 'Année' }),
  })
  .strict()
  .prefault({ year: undefined });
