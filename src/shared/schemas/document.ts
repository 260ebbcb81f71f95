import { z } from 'zod';
import { hasAtMostDecimals, isMoneyLike, money, toNumber } from '../money';
import { parseRate } from '../exchange';
import type { Address } from './customer';
import { DOCUMENT_TYPES, LIST_TYPES, type DocumentType, type ListType } from '../document-types';

export { DOCUMENT_TYPES, LIST_TYPES, type DocumentType, type ListType };
export const documentTypeSchema = z.enum(DOCUMENT_TYPES, { error: 'Type de document inconnu' });

export const discountTypeSchema = z.enum(['percent', 'amount'], { error: 'Type de remise : percent ou amount' });
export type DiscountType = z.infer<typeof discountTypeSchema>;

/**
 * An amount or quantity: a JSON number, or a string as people type it ('12,5', '1 234,50'), read exactly by the
 * shared decimal parser (money.ts) and answered as a JSON number; at most `decimals` decimals, within `limit`.
 * An empty string is nothing typed yet: 0. The editor and the dialogs keep what was typed, the server gets the
 * number. `invalid` words the answer to a text that is not a number (default: "<label> : un nombre est attendu").
 */
export const decimalSchema = (label: string, decimals: number, limit = 1e12, invalid = `${label} : un nombre est attendu`) =>
  z
    .union([z.number(), z.string()], { error: `${label} : un nombre est attendu` })
    .transform((v, ctx) => {
      if (typeof v === 'number') return v;
      if (!isMoneyLike(v)) {
        ctx.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
      return toNumber(money(v));
    })
    .pipe(
      z
        .number({ error: `${label} : un nombre est attendu` })
        .refine(Number.isFinite, `${label} : un nombre fini est attendu`)
        .refine((n) => Math.abs(n) <= limit, `${label} : valeur trop grande`)
        .refine((n) => hasAtMostDecimals(n, decimals), `${label} : ${decimals} décimales au plus`),
    );

/** Rows the form leaves blank are not kept (the editor shows empty rows to fill in). */
const withoutBlankRows = <T extends z.ZodType>(row: T, keep: (r: z.output<T>) => boolean, max: number) =>
  z
    .array(row)
    .max(max)
    .transform((rows) => rows.filter(keep));

export const taxLineSchema = z
  .object({
    title: z
      .string({ error: 'Taxe : un intitulé est attendu' })
      .trim()
      .min(1, 'Taxe : un intitulé est attendu')
      .max(60)
      .meta({ label: 'Intitulé' }),
    rate: decimalSchema('Taux de taxe', 4, 100)
      .refine((r) => r >= 0, 'Taux de taxe : il ne peut être négatif')
      .meta({ label: 'Taux de taxe' }),
  })
  .meta({ label: 'Taxe' });
export type TaxLine = z.infer<typeof taxLineSchema>;

/**
 * A document line as clients send it. The computed fields (price, net_price,
 * discount, subtotal, gross_total, tax, total) are not part of it: unknown keys are dropped, never trusted.
 */
export const documentItemInputSchema = z.object({
  id: z.number().int().positive().optional().meta({ label: 'Identifiant' }),
  /** Client-only: the editor's stable key for a line's panel. Never stored nor answered. */
  key: z.string().max(64).optional(),
  code: z.string().max(60).optional().nullable().meta({ label: 'Code' }),
  sku: z.string().max(60).optional().nullable().meta({ label: 'Référence' }),
  item: z.string().trim().max(200, 'Désignation : 200 caractères au plus').default('').meta({ label: 'Désignation' }),
  description: z.string().max(5000, 'Description : 5000 caractères au plus').default('').meta({ label: 'Description' }),
  quantity: decimalSchema('Quantité', 4, 1e9).default(1).meta({ label: 'Quantité' }),
  unit: z.string().trim().max(20).default('u').meta({ label: 'Unité' }),
  unit_price: decimalSchema('Prix unitaire', 4).default(0).meta({ label: 'Prix unitaire' }),
  discount_type: discountTypeSchema.default('percent').meta({ label: 'Type de remise' }),
  discount_value: decimalSchema('Remise', 4)
    .refine((v) => v >= 0, 'Remise : elle ne peut être négative')
    .default(0)
    .meta({ label: 'Remise' }),
  taxes: z.array(taxLineSchema).max(5, 'Cinq taxes au plus par ligne').default([]).meta({ label: 'Taxes' }),
  /** Goods or service: feeds the e-invoicing "nature of the operation" mention. */
  kind: z.enum(['goods', 'service'], { error: 'Nature : bien (goods) ou service' }).default('service').meta({ label: 'Nature' }),
});
export type DocumentItemInput = z.input<typeof documentItemInputSchema>;
export type DocumentItem = z.infer<typeof documentItemInputSchema>;

export const depositRequestSchema = z.object({
  description: z.string().trim().max(200).default('Acompte').meta({ label: 'Description' }),
  amount: decimalSchema('Acompte', 4)
    .refine((v) => v >= 0, 'Acompte : il ne peut être négatif')
    .meta({ label: 'Montant' }),
});
export type DepositRequest = z.infer<typeof depositRequestSchema>;

export const keyValueSchema = z.object({
  key: z.string().trim().max(100).meta({ label: 'Clé' }),
  value: z.string().trim().max(500).meta({ label: 'Valeur' }),
});
export type KeyValue = z.infer<typeof keyValueSchema>;

/** Prices typed excluding tax (HT, the default) or including it (TTC: the typed amounts are what the customer pays). */
export const priceModeSchema = z.enum(['ht', 'ttc']);
export type PriceMode = z.infer<typeof priceModeSchema>;

const isoDate = z.iso.date({ error: 'Date attendue au format AAAA-MM-JJ' });

const DELIVERY = 'Adresse de livraison';
const blankAddress = (a: Address) => !(a.line1 || a.line2 || a.postal_code || a.city || a.state);
/** One line of a delivery address: the customer address's shape (customer.ts), its messages naming the delivery. */
const deliveryLine = (what: string, max: number, label: string, fallback = '') =>
  z
    .string({ error: `${DELIVERY} (${what}) : un texte est attendu` })
    .trim()
    .max(max, `${DELIVERY} (${what}) : ${max} caractères au plus`)
    .default(fallback)
    .meta({ label });

/**
 * Where this document's goods or services go, when not to the billing address (C. com. L441-9; a 2026 e-invoicing
 * mention when it differs). Null: the billing address. Left blank it is none; started, it is complete enough to print.
 */
export const deliveryAddressSchema = z
  .object(
    {
      line1: deliveryLine('adresse', 200, 'Adresse'),
      line2: deliveryLine('complément', 200, 'Complément d’adresse'),
      city: deliveryLine('ville', 100, 'Ville'),
      state: deliveryLine('région', 100, 'Région'),
      postal_code: deliveryLine('code postal', 20, 'Code postal'),
      country: deliveryLine('pays', 100, 'Pays', 'France'),
    },
    { error: `${DELIVERY} : une adresse est attendue (line1, postal_code, city, country), ou null pour l’adresse de facturation` },
  )
  .superRefine((a, ctx) => {
    if (blankAddress(a)) return;
    const need = (key: 'line1' | 'postal_code' | 'city', what: string) => {
      if (!a[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${DELIVERY} : ${what}` });
    };
    need('line1', 'l’adresse (rue) est attendue');
    need('postal_code', 'le code postal est attendu');
    need('city', 'la ville est attendue');
  })
  .transform((a): Address | null => (blankAddress(a) ? null : a))
  .meta({ label: DELIVERY });

/**
 * The exchange rate typed on a draft in another currency than the accounting one: units of the document's currency
 * for 1 unit of the accounting currency ('1,085': 1 EUR = 1,085 USD), above 0, 6 decimals at most, answered as its
 * exact decimal string ('1.085'). Empty or null: none typed, the rate of Paramètres → Devises is taken at issue.
 */
export const exchangeRateInputSchema = z
  .union([z.string(), z.number()], { error: 'Le taux de change doit être un nombre (ex. 1,085)' })
  .transform((value, ctx): string | null => {
    if (typeof value === 'string' && value.trim() === '') return null;
    const parsed = parseRate(value);
    if ('rate' in parsed) return parsed.rate;
    ctx.addIssue({ code: 'custom', message: parsed.error, input: value });
    return z.NEVER;
  });

/** The document form, as sent to POST/PUT /api/documents. Totals are computed, never taken from here. */
export const documentInputSchema = z.object({
  type: documentTypeSchema.default('invoice').meta({ label: 'Type' }),
  date: isoDate.meta({ label: 'Date' }),
  maturity: z.iso.date({ error: 'Échéance : date attendue au format AAAA-MM-JJ' }).nullable().optional().meta({ label: 'Échéance' }),
  /** Date of the sale or of the service when it differs from the issue date (CGI art. 242 nonies A, 7°). */
  sale_date: z.iso
    .date({ error: 'Date de la vente : date attendue au format AAAA-MM-JJ' })
    .nullable()
    .optional()
    .meta({ label: 'Date de la vente' }),
  condition: z.string().max(500).default('').meta({ label: 'Conditions' }),
  header: z.string().max(5000).default('').meta({ label: 'En-tête' }),
  footer: z.string().max(5000).default('').meta({ label: 'Pied de page' }),
  terms: z.string().max(5000).default('').meta({ label: 'Mentions et références' }),
  note: z.string().max(5000).default('').meta({ label: 'Note' }),
  discount_type: discountTypeSchema.nullable().default('percent').meta({ label: 'Type de remise' }),
  discount_value: decimalSchema('Remise', 4)
    .refine((v) => v >= 0, 'Remise : elle ne peut être négative')
    .nullable()
    .default(0)
    .meta({ label: 'Remise' }),
  shipping: decimalSchema('Frais de port', 4)
    .refine((v) => v >= 0, 'Frais de port : ils ne peuvent être négatifs')
    .default(0)
    .meta({ label: 'Frais de port' }),
  /**
   * The VAT rate of shipping (CGI art. 267: shipping is part of the taxable base): a rate, or null for none. With
   * `shipping_tax_auto` (the default when no rate is given) the document's main rate, resolved at each save.
   */
  shipping_tax: taxLineSchema.nullable().optional().meta({ label: 'TVA des frais de port' }),
  shipping_tax_auto: z.boolean({ error: 'TVA des frais de port : true ou false' }).optional().meta({ label: 'TVA des frais de port' }),
  shipping_details: z.string().max(1000).default('').meta({ label: 'Détails de livraison' }),
  /** The legal basis of lines billed without VAT (CGI art. 242 nonies A, 13°), e.g. 'Exonération de TVA, art. 261-4-4° du CGI'. */
  vat_exemption: z
    .string()
    .trim()
    .max(300, 'Exonération de TVA : 300 caractères au plus')
    .default('')
    .meta({ label: 'Exonération de TVA' }),
  additional_info: withoutBlankRows(keyValueSchema, (kv) => Boolean(kv.key || kv.value), 20)
    .default([])
    .meta({ label: 'Informations complémentaires' }),
  deposit_request: withoutBlankRows(depositRequestSchema, (d) => Boolean(d.description) || d.amount !== 0, 20)
    .default([])
    .meta({ label: 'Acomptes demandés' }),
  customer_id: z.number().int().positive().nullable().optional().meta({ label: 'Client' }),
  order_id: z.number().int().positive().nullable().optional().meta({ label: 'Commande' }),
  /** The customer's purchase-order number, printed when set (C. com. L441-9). */
  purchase_order: z
    .string({ error: 'N° de bon de commande : un texte est attendu' })
    .trim()
    .max(60, 'N° de bon de commande : 60 caractères au plus')
    .default('')
    .meta({ label: 'N° de bon de commande' }),
  /** Left out: the customer's delivery address when it differs from their billing address; null: the billing address. */
  delivery_address: deliveryAddressSchema.nullable().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Devise : code ISO de 3 lettres')
    .default('EUR')
    .meta({ label: 'Devise' }),
  price_mode: priceModeSchema.default('ht').meta({ label: 'Prix saisis' }),
  /**
   * A draft's own rate (see exchangeRateInputSchema). Left out of an update: the draft keeps the rate it has, unless
   * its currency changes. Once issued the rate is the one kept at issue, and a credit note's is its invoice's.
   */
  exchange_rate: exchangeRateInputSchema.nullable().optional().meta({ label: 'Taux de change' }),
  items: z.array(documentItemInputSchema).max(2000, '2000 lignes au plus par document').default([]).meta({ label: 'Lignes' }),
});
export type DocumentInput = z.input<typeof documentInputSchema>;
export type DocumentForm = z.infer<typeof documentInputSchema>;

/** What a stale update is answered (409): the form was loaded before someone else saved the document. */
export const DOCUMENT_MODIFIED = 'Ce document a été modifié entre-temps : rechargez-le';

/**
 * The version a form was loaded at: the document's `updated_at` as it was read. Optional for API clients (a PUT
 * Without it overwrites); the editor always sends it, so an old form never overwrites a newer one.
 */
export const baseVersionSchema = z.string().max(40).optional().meta({ label: 'Version' });

/** PUT /api/documents/{id}: the document form and the version it was based on. */
export const documentUpdateSchema = documentInputSchema.extend({ base_updated_at: baseVersionSchema });
export type DocumentUpdate = z.infer<typeof documentUpdateSchema>;
