import { z } from 'zod';
import { addressSchema } from './customer';
import { keyValueSchema } from './document';

/** SPEC §3 organization settings, plus the legal identity French invoices must show (CGI art. 242 nonies A). */
export const organizationSettingsSchema = z.object({
  name: z.string().trim().min(1, 'Le nom de l’entreprise est obligatoire').max(200),
  legal_form: z.string().trim().max(60).default(''),
  capital: z.string().trim().max(40).default(''),
  siret: z.string().trim().max(20).default(''),
  rcs_city: z.string().trim().max(100).default(''),
  vat_number: z.string().trim().max(20).default(''),
  vat_regime: z.enum(['normal', 'franchise', 'debits']).default('normal'),
  phone: z.string().trim().max(40).default(''),
  mobile: z.string().trim().max(40).default(''),
  email: z.union([z.literal(''), z.email('Adresse e-mail invalide')]).default(''),
  web: z.string().trim().max(200).default(''),
  address: addressSchema.prefault({}),
  identifications: z.array(keyValueSchema).max(20).default([]),
  additional_info: z.array(keyValueSchema).max(20).default([]),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;
