import { z } from 'zod';
import { sirenOrSiretField, vatNumberField } from './fields';
import { tagIdsField } from './tag';

/** SPEC §3 address (billing and shipping alike). */
export const addressSchema = z.object({
  line1: z.string().trim().max(200).default(''),
  line2: z.string().trim().max(200).default(''),
  city: z.string().trim().max(100).default(''),
  state: z.string().trim().max(100).default(''),
  postal_code: z.string().trim().max(20).default(''),
  country: z.string().trim().max(100).default('France'),
});
export type Address = z.infer<typeof addressSchema>;

export const contactSchema = z.object({
  name: z.string().trim().min(1, 'Contact : le nom est obligatoire').max(120),
  role: z.string().trim().max(120).default(''),
  email: z.union([z.literal(''), z.email('Contact : adresse e-mail invalide')]).default(''),
  phone: z.string().trim().max(40).default(''),
});

/**
 * A customer as the customers issue and the documents use it (SPEC §3 plus what French invoicing needs):
 * individuals need no business identifiers; companies' SIREN/SIRET and VAT numbers are checked.
 */
export const customerInputSchema = z
  .object({
    type: z.enum(['company', 'individual'], { error: 'Type de client : entreprise ou particulier' }).default('company'),
    name: z.string({ error: 'Le nom du client est obligatoire' }).trim().min(1, 'Le nom du client est obligatoire').max(200),
    legal_name: z.string().trim().max(200).default(''),
    email: z.union([z.literal(''), z.email('Adresse e-mail du client invalide')]).default(''),
    phone: z.string().trim().max(40).default(''),
    mobile: z.string().trim().max(40).default(''),
    web: z.string().trim().max(200).default(''),
    business_id: sirenOrSiretField(),
    vat_number: vatNumberField(),
    address: addressSchema.prefault({}),
    shipping: addressSchema.prefault({}),
    contacts: z.array(contactSchema).max(20).default([]),
    language: z
      .string()
      .regex(/^[a-z]{2}$/, 'Langue : code à deux lettres (fr, en…)')
      .default('fr'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'Devise : code ISO de 3 lettres')
      .default('EUR'),
    maturity: z
      .number({ error: 'Délai de paiement : un nombre de jours est attendu' })
      .int('Délai de paiement : un nombre entier de jours')
      .min(0, 'Délai de paiement : 0 jour au moins')
      .max(365, 'Délai de paiement : 365 jours au plus')
      .default(30),
    note: z.string().max(5000).default(''),
    description: z.string().max(5000).default(''),
    tag_ids: tagIdsField(),
  })
  .superRefine((c, ctx) => {
    if (c.type === 'individual' && c.business_id)
      ctx.addIssue({ code: 'custom', path: ['business_id'], message: 'Un particulier n’a pas de SIREN/SIRET' });
  });
export type CustomerInput = z.input<typeof customerInputSchema>;
export type Customer = z.infer<typeof customerInputSchema>;
