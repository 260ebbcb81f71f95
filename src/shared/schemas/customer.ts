import { z } from 'zod';
import { sirenOrSiretField, taxIdError, taxIdField } from './fields';
import { tagIdsField } from './tag';
import { tagChipSchema } from './tag';
import { listAnswer, writeAnswer } from './answers';
import { countryCode } from '../countries';

export const FRENCH_POSTCODE_MESSAGE = 'Code postal : 5 chiffres pour une adresse en France (ex. 75011)';

/** Address (billing and shipping alike). */
export const addressSchema = z
  .object({
    line1: z.string().trim().max(200).default('').meta({ label: 'Adresse' }),
    line2: z.string().trim().max(200).default('').meta({ label: 'Complément d’adresse' }),
    city: z.string().trim().max(100).default('').meta({ label: 'Ville' }),
    state: z.string().trim().max(100).default('').meta({ label: 'Région' }),
    postal_code: z.string().trim().max(20).default('').meta({ label: 'Code postal' }),
    country: z.string().trim().max(100).default('France').meta({ label: 'Pays' }),
  })
  // La Poste: a French postcode is 5 digits (overseas departments and Monaco too); other countries vary too much to check.
  .superRefine((a, ctx) => {
    if (a.postal_code && countryCode(a.country) === 'FR' && !/^\d{5}$/.test(a.postal_code))
      ctx.addIssue({ code: 'custom', path: ['postal_code'], message: FRENCH_POSTCODE_MESSAGE });
  });
export type Address = z.infer<typeof addressSchema>;

export const contactSchema = z.object({
  name: z.string().trim().min(1, 'Contact : le nom est obligatoire').max(120).meta({ label: 'Nom' }),
  role: z.string().trim().max(120).default(''),
  email: z
    .union([z.literal(''), z.email('Contact : adresse e-mail invalide')])
    .default('')
    .meta({ label: 'E-mail' }),
  phone: z.string().trim().max(40).default('').meta({ label: 'Téléphone' }),
});

/**
 * A customer as the customers issue and the documents use it (plus what French invoicing needs):
 * individuals need no business identifiers; companies' SIREN/SIRET and VAT numbers are checked.
 */
export const customerInputSchema = z
  .object({
    type: z
      .enum(['company', 'individual'], { error: 'Type de client : entreprise ou particulier' })
      .default('company')
      .meta({ label: 'Type' }),
    name: z
      .string({ error: 'Le nom du client est obligatoire' })
      .trim()
      .min(1, 'Le nom du client est obligatoire')
      .max(200)
      .meta({ label: 'Nom' }),
    legal_name: z.string().trim().max(200).default('').meta({ label: 'Raison sociale' }),
    email: z
      .union([z.literal(''), z.email('Adresse e-mail du client invalide')])
      .default('')
      .meta({ label: 'E-mail' }),
    phone: z.string().trim().max(40).default('').meta({ label: 'Téléphone' }),
    mobile: z.string().trim().max(40).default('').meta({ label: 'Mobile' }),
    web: z.string().trim().max(200).default('').meta({ label: 'Site web' }),
    business_id: sirenOrSiretField().meta({ label: 'SIREN/SIRET' }),
    vat_number: taxIdField().meta({ label: 'Numéro de TVA' }),
    address: addressSchema.prefault({}).meta({ label: 'Adresse' }),
    shipping: addressSchema.prefault({}).meta({ label: 'Adresse de livraison' }),
    contacts: z.array(contactSchema).max(20).default([]).meta({ label: 'Contacts' }),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, 'Langue : code à deux lettres (fr, en…)')
      .default('fr')
      .meta({ label: 'Langue' }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'Devise : code ISO de 3 lettres')
      .default('EUR')
      .meta({ label: 'Devise' }),
    maturity: z
      .number({ error: 'Délai de paiement : un nombre de jours est attendu' })
      .int('Délai de paiement : un nombre entier de jours')
      .min(0, 'Délai de paiement : 0 jour au moins')
      .max(365, 'Délai de paiement : 365 jours au plus')
      .default(30)
      .meta({ label: 'Délai de paiement' }),
    note: z.string().max(5000).default('').meta({ label: 'Note' }),
    description: z.string().max(5000).default('').meta({ label: 'Description' }),
    tag_ids: tagIdsField().meta({ label: 'Étiquettes' }),
  })
  .superRefine((c, ctx) => {
    if (c.type === 'individual' && c.business_id)
      ctx.addIssue({ code: 'custom', path: ['business_id'], message: 'Un particulier n’a pas de SIREN/SIRET' });
    // An EU VAT number in France and the EU; outside it, the country's own tax id.
    const taxId = taxIdError(c.vat_number, c.address.country);
    if (taxId) ctx.addIssue({ code: 'custom', path: ['vat_number'], message: taxId });
  });
export type CustomerInput = z.input<typeof customerInputSchema>;
export type Customer = z.infer<typeof customerInputSchema>;

// Answers (the procedures' `.output()`): a stored customer, without the input's trimming and defaults.

const storedAddressSchema = z.object({
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string(),
});

export const DIRECTORY_STATUSES = ['unknown', 'listed', 'absent'] as const;

export const customerSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  type: z.enum(['company', 'individual']),
  name: z.string(),
  legal_name: z.string(),
  email: z.string(),
  phone: z.string(),
  mobile: z.string(),
  web: z.string(),
  business_id: z.string(),
  vat_number: z.string(),
  address: storedAddressSchema,
  shipping: storedAddressSchema,
  contacts: z.array(z.object({ name: z.string(), role: z.string(), email: z.string(), phone: z.string() })),
  language: z.string(),
  currency: z.string(),
  maturity: z.number().int(),
  note: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  tag_ids: z.array(z.number().int()),
  tags: z.array(tagChipSchema),
  /** What the e-invoicing directory (annuaire) of the platform answered for the SIREN: 'unknown' until looked up. */
  directory_status: z.enum(DIRECTORY_STATUSES),
  /** The directory's electronic address (BT-49) and routing code, '' when not listed. */
  electronic_address: z.string(),
  routing_code: z.string(),
  directory_checked_at: z.string().nullable(),
});
export type CustomerRecord = z.infer<typeof customerSchema>;
export const customerListSchema = listAnswer(customerSchema);
export const customerWriteSchema = writeAnswer(customerSchema);

/**
 * One line of the customer page's figures, in one currency: billed (invoices less credit notes), received, refunded,
 * the credit still available to them, and what is still due — billed − paid + refunded + credit = outstanding.
 */
export const customerFiguresSchema = listAnswer(
  z.object({
    currency: z.string(),
    billed: z.number(),
    paid: z.number(),
    refunded: z.number(),
    credit: z.number(),
    outstanding: z.number(),
    documents: z.number().int(),
  }),
);

/** What the customer form asks before saving: is this customer already there? */
export const customerDuplicatesQuerySchema = z.object({
  name: z.string().trim().max(200).default('').meta({ label: 'Nom' }),
  email: z.string().trim().max(200).default('').meta({ label: 'E-mail' }),
  business_id: z.string().trim().max(40).default('').meta({ label: 'SIREN/SIRET' }),
  exclude_id: z.number().int().positive().optional().meta({ label: 'Client modifié' }),
});

export const customerDuplicatesSchema = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      number: z.string(),
      name: z.string(),
      email: z.string(),
      business_id: z.string(),
      deleted_at: z.string().nullable(),
      /** Same SIREN, or same name and e-mail. */
      reason: z.enum(['siren', 'name_email']),
    }),
  ),
});
