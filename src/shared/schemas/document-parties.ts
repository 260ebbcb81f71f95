import { z } from 'zod';
import { addressSchema } from './customer';
import { keyValueSchema } from './document';

/**
 * The parties as a document keeps them once issued (CGI art. 242 nonies A: the invoice shows who sold to whom at
 * that date; editing the customer or the profile later never rewrites it). Lenient on purpose: a snapshot taken
 * years ago must still display, so every field a later version added has a default.
 */
const text = z.string().default('');
const pairs = z.array(keyValueSchema).default([]);

/**
 * The account a customer pays by transfer: the organisation's default bank account (Paramètres → Comptes bancaires),
 * IBAN and BIC compact and upper case, `bic` '' when none was given.
 */
export const paymentAccountSchema = z.object({ holder: z.string(), iban: z.string(), bic: z.string() });
export type PaymentAccount = z.infer<typeof paymentAccountSchema>;

/** The seller: the organisation profile at issue, its legal identity line and the payment settings printed. */
export const sellerPartySchema = z.object({
  name: z.string(),
  legal_form: text,
  capital: text,
  siret: text,
  rcs_city: text,
  rm_registration: text,
  vat_number: text,
  vat_regime: z.enum(['normal', 'franchise']).default('normal'),
  vat_on_debits: z.boolean().default(false),
  phone: text,
  mobile: text,
  email: text,
  web: text,
  address: addressSchema.prefault({}),
  identifications: pairs,
  additional_info: pairs,
  logo_url: z.string().nullable().default(null),
  /**
   * The account printed in the payment block and written as the e-invoice's payment means. null in snapshots taken
   * before bank accounts existed: those printed the IBAN their free key/values held, still in `additional_info`.
   */
  payment_account: paymentAccountSchema.nullable().default(null),
  /**
   * The organisation's own directory line at issue (its electronic address, BT-34 under scheme 0225, and its routing
   * code); absent when the directory did not list it then, or in snapshots taken before it was read.
   */
  electronic_address: z.string().optional(),
  routing_code: z.string().optional(),
  /** The legal identity lines (shared/legal-mentions sellerIdentity), as printed. */
  identity: z.array(z.string()).optional(),
  /** The late-payment terms printed with the mentions (C. com. L441-10, D441-5). */
  settings: z
    .object({
      late_penalty_rate: z.number(),
      recovery_indemnity: z.number(),
      escompte: z.string(),
    })
    .optional(),
});
export type SellerParty = z.infer<typeof sellerPartySchema>;

/** The customer: what the document shows of them (id and e-mail stay private on the public page). */
export const customerPartySchema = z.object({
  id: z.number().int().optional(),
  number: text,
  type: z.enum(['company', 'individual']).default('company'),
  name: z.string(),
  legal_name: text,
  email: z.string().optional(),
  business_id: text,
  vat_number: text,
  address: addressSchema.prefault({}),
  /**
   * Where this document delivers: the document's own delivery address (its `delivery_address`), blank when it is the
   * billing address. Documents issued before that field kept the customer's shipping address here, which is what they
   * printed.
   */
  shipping: addressSchema.prefault({}),
  /**
   * What the e-invoicing directory listed for the customer when the document was issued: the electronic address its
   * e-invoice is sent to (BT-49) and the routing code (BT-46, scheme 0224). Absent when it was not listed, and in
   * snapshots taken before the directory was read: the e-invoice then addresses the SIREN.
   */
  electronic_address: z.string().optional(),
  routing_code: z.string().optional(),
});
export type CustomerParty = z.infer<typeof customerPartySchema>;
