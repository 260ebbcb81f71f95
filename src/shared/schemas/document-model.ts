import { z } from 'zod';
import { STORED_STATUSES } from '../document-status';
import {
  depositRequestSchema,
  documentInputSchema,
  documentItemInputSchema,
  documentTypeSchema,
  keyValueSchema,
  taxLineSchema,
} from './document';
import { customerPartySchema, sellerPartySchema } from './document-parties';
import { addressSchema } from './customer';
import { documentTemplateSchema } from './template';
import { documentEinvoiceSchema } from './einvoice-lifecycle';
import { creditSettlementSchema } from './payment';

/**
 * A document in one shape per stage:
 *
 * | stage    | schema                 | built in                                                         |
 * |----------|------------------------|------------------------------------------------------------------|
 * | typed    | documentInputSchema    | the editor (its state is the schema's input type)                |
 * | stored   | storedDocumentSchema   | server/db/queries/document-mapping.ts, the one row ↔ domain map  |
 * | answered | documentSchema         | server/services/documents.ts answerOf (stored + links + balance) |
 * | listed   | documentListEntrySchema| server/db/queries/document-lists.ts listDocuments                |
 * | issued   | issuedDocumentSchema   | the columns frozen at issue, read by the public page and the PDF |
 *
 * Amounts are JSON numbers in major units, computed once per write by shared/totals.ts and read back.
 */

export const storedStatusSchema = z.enum(STORED_STATUSES);
/** What the screens show: `overdue` is derived when read, never stored. */
export const shownStatusSchema = z.enum([...STORED_STATUSES, 'overdue']);
export const documentKindSchema = z.enum(['standard', 'deposit']);
export const operationNatureSchema = z.enum(['goods', 'services', 'mixed']);
export type OperationNature = z.infer<typeof operationNatureSchema>;

/** A line's amounts (shared/totals.ts LineTotals): computed at each write, stored with the line. */
export const lineAmountsSchema = z.object({
  price: z.number(),
  net_price: z.number(),
  subtotal: z.number(),
  discount: z.number(),
  gross_total: z.number(),
  tax: z.number(),
  total: z.number(),
});
export const taxGroupSchema = z.object({
  title: z.string(),
  rate: z.number(),
  taxable_amount: z.number(),
  amount: z.number(),
  /** The part of shipping inside `taxable_amount` (absent when none, and on documents saved before it was kept). */
  shipping: z.number().optional(),
});

/** A line as stored and answered: what was typed, its id, and its amounts. */
export const documentLineSchema = documentItemInputSchema
  .omit({ key: true })
  .extend({ id: z.number().int().positive() })
  .extend(lineAmountsSchema.shape);
export type DocumentLine = z.infer<typeof documentLineSchema>;

/** Every total of a document (shared/totals.ts DocumentTotals without its lines). */
export const documentTotalsSchema = z.object({
  subtotal: z.number(),
  discount: z.number(),
  taxes: z.array(taxGroupSchema),
  tax: z.number(),
  shipping: z.number(),
  total: z.number(),
  deposits: z.number(),
  paid: z.number(),
  amount_due: z.number(),
});
export type StoredTotals = z.infer<typeof documentTotalsSchema>;

/** The form's own fields as they come back: numbers, nulls where nothing was set. */
const formFields = documentInputSchema.omit({ items: true, additional_info: true, deposit_request: true }).extend({
  /** The rate applied to shipping at the last save (null: none), and whether it follows the main rate of the lines. */
  shipping_tax: taxLineSchema.nullable(),
  shipping_tax_auto: z.boolean(),
  maturity: z.string().nullable(),
  sale_date: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  order_id: z.number().int().nullable(),
  purchase_order: z.string(),
  delivery_address: addressSchema.nullable(),
  additional_info: z.array(keyValueSchema),
  deposit_request: z.array(depositRequestSchema),
});

const timestamps = { issued_at: z.string().nullable(), sent_at: z.string().nullable(), viewed_at: z.string().nullable() };

/** The domain document: what the query layer answers and takes, JSON columns parsed, amounts in major units. */
export const storedDocumentSchema = formFields.extend({
  id: z.number().int(),
  organization_id: z.number().int(),
  kind: documentKindSchema,
  status: storedStatusSchema,
  number: z.string().nullable(),
  counter: z.number().int().nullable(),
  uuid: z.string(),
  items: z.array(documentLineSchema),
  totals: documentTotalsSchema,
  customer_name: z.string(),
  origin_id: z.number().int().nullable(),
  corrects_id: z.number().int().nullable(),
  deducted_by_id: z.number().int().nullable(),
  /** Frozen at issue (null while a draft): the parties and the mentions printed. */
  seller: sellerPartySchema.nullable(),
  customer: customerPartySchema.nullable(),
  legal_mentions: z.array(z.string()),
  /** The template in force at issue: a later template change applies to documents issued afterwards. */
  template: documentTemplateSchema.nullable(),
  /**
   * Units of the document's currency per unit of the base. On a draft, the rate typed for it (null: none, Paramètres →
   * Devises' is taken at issue); kept at issue (null for an old document whose currency is no longer enabled): what
   * the reports and the FEC convert it at, whatever today's rate is.
   */
  exchange_rate: z.string().nullable(),
  ...timestamps,
  created_at: z.string(),
  updated_at: z.string(),
});
export type StoredDocument = z.infer<typeof storedDocumentSchema>;

/** Another document linked to this one (origin, corrected invoice, conversions, deposits, credit notes). */
export const linkedDocumentSchema = z.object({
  id: z.number().int(),
  type: documentTypeSchema,
  kind: documentKindSchema,
  status: z.string(),
  number: z.string().nullable(),
  date: z.string(),
  total: z.number(),
  currency: z.string(),
  origin_id: z.number().int().nullable(),
  corrects_id: z.number().int().nullable(),
});
export type LinkedDocument = z.infer<typeof linkedDocumentSchema>;

export const depositInvoiceSchema = z.object({ id: z.number().int(), number: z.string().nullable(), date: z.string(), total: z.number() });

/**
 * The document as GET /api/documents/{id} answers it: the
 * form's fields, each line with its amounts, every total, the status and the links.
 */
export const documentSchema = formFields.extend({
  id: z.number().int(),
  kind: documentKindSchema,
  status: shownStatusSchema,
  stored_status: storedStatusSchema,
  number: z.string().nullable(),
  uuid: z.string(),
  customer: customerPartySchema.nullable(),
  organization: sellerPartySchema.nullable(),
  items: z.array(documentLineSchema),
  ...documentTotalsSchema.shape,
  deposit_invoices: z.array(depositInvoiceSchema),
  /** On an invoice, the credit set against it (its own credit notes' and others'): what is left to pay accounts for it. */
  credited: z.number(),
  /** On an issued credit note: the invoices it was set against, its refunds and what it has left. */
  settlement: creditSettlementSchema.nullable().optional(),
  legal_mentions: z.array(z.string()),
  /**
   * Goods, services or both (the 2026 "nature de l'opération" mention): from the lines, or for a deposit invoice from
   * the lines of the estimate or order it is paid on (its own lines only say "Acompte").
   */
  operation_nature: operationNatureSchema,
  /** Issued documents render with the template in force at their issue; null: the current template (drafts, older documents). */
  template: documentTemplateSchema.nullable(),
  origin: linkedDocumentSchema.nullable(),
  corrects: linkedDocumentSchema.nullable(),
  linked: z.array(linkedDocumentSchema),
  /** An issued invoice or credit note submitted through the platform's API: its flow, acknowledgement and lifecycle. */
  einvoice: documentEinvoiceSchema.nullable(),
  /**
   * Units of the document's currency per unit of the accounting currency ('1.085': 1 EUR = 1,085 USD): on a draft the
   * rate typed for it, null when none was (Paramètres → Devises' is then taken at issue); once issued, the rate kept.
   */
  exchange_rate: z.string().nullable(),
  /** An issued invoice's ISO 11649 creditor reference (« RF… »), the one its payment block prints; null otherwise. */
  payment_reference: z.string().nullable(),
  ...timestamps,
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentAnswer = z.infer<typeof documentSchema>;

/** A write's answer: `{ messages, data }`, data the full saved document. */
export const documentWriteSchema = z.object({ messages: z.string(), data: documentSchema });

/** One entry of GET /api/documents: no long texts, no lines. */
export const documentListEntrySchema = z.object({
  id: z.number().int(),
  type: documentTypeSchema,
  kind: documentKindSchema,
  status: shownStatusSchema,
  number: z.string().nullable(),
  uuid: z.string(),
  date: z.string(),
  maturity: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string(),
  currency: z.string(),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  deposits: z.number(),
  paid: z.number(),
  amount_due: z.number(),
  origin_id: z.number().int().nullable(),
  corrects_id: z.number().int().nullable(),
  sent_at: z.string().nullable(),
  issued_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentListEntry = z.infer<typeof documentListEntrySchema>;
export const documentListSchema = z.object({ total: z.number().int(), data: z.array(documentListEntrySchema) });

/**
 * An issued document as it was issued (CGI art. 242 nonies A): the parties, the lines with their amounts, the
 * totals and tax groups, the mentions. Shown from what was stored, never recomputed. No internal ids: this is
 * also what the public page gets.
 */
export const issuedDocumentSchema = formFields.omit({ customer_id: true, order_id: true }).extend({
  kind: documentKindSchema,
  number: z.string().nullable(),
  organization: sellerPartySchema.nullable(),
  customer: customerPartySchema.omit({ id: true, email: true, electronic_address: true, routing_code: true }).nullable(),
  /** The rate kept at issue (units of the document's currency per unit of the accounting one): its VAT in euros. */
  exchange_rate: z.string().nullable().default(null),
  items: z.array(documentLineSchema.omit({ id: true })),
  subtotal: z.number(),
  discount: z.number(),
  taxes: z.array(taxGroupSchema),
  tax: z.number(),
  shipping: z.number(),
  total: z.number(),
  legal_mentions: z.array(z.string()),
});
export type IssuedDocument = z.infer<typeof issuedDocumentSchema>;

/** What is left to pay on an issued document, read live beside its frozen content. */
export const documentBalanceSchema = z.object({
  deposits: z.number(),
  deposit_invoices: z.array(depositInvoiceSchema.omit({ id: true })),
  credited: z.number(),
  paid: z.number(),
  amount_due: z.number(),
});
export const sharedDocumentSchema = issuedDocumentSchema.extend(documentBalanceSchema.shape);
export type SharedDocumentView = z.infer<typeof sharedDocumentSchema>;
