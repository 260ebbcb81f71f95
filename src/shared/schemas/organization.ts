import { z } from 'zod';
import { paymentAccountSchema } from './document-parties';
import { isBase64DataUrl } from '../base64';
import { writeAnswer } from './answers';
import { addressSchema } from './customer';
import { keyValueSchema } from './document';
import { sirenOrSiretField, vatNumberField } from './fields';

/**
 * Organization settings, plus the legal identity French invoices must show (CGI art. 242 nonies A,
 * C. com. L441-9): legal form, share capital, SIREN/SIRET, RCS city or RM registration, VAT number, VAT regime.
 */
export const organizationSettingsSchema = z.object({
  name: z
    .string({ error: 'Le nom de l’entreprise est obligatoire' })
    .trim()
    .min(1, 'Le nom de l’entreprise est obligatoire')
    .max(200)
    .meta({ label: 'Nom' }),
  legal_form: z.string().trim().max(60).default('').meta({ label: 'Forme juridique' }),
  capital: z.string().trim().max(40).default('').meta({ label: 'Capital' }),
  siret: sirenOrSiretField().meta({ label: 'SIRET' }),
  rcs_city: z.string().trim().max(100).default('').meta({ label: 'Ville du RCS' }),
  /** Répertoire des métiers, for artisans (e.g. 'RM 123 456 789 Paris'): beside or instead of the RCS. */
  rm_registration: z
    .string({ error: 'Immatriculation au RM : un texte est attendu' })
    .trim()
    .max(100, 'Immatriculation au RM : 100 caractères au plus')
    .default('')
    .meta({ label: 'Immatriculation au RM' }),
  vat_number: vatNumberField().meta({ label: 'Numéro de TVA' }),
  /** 'franchise': franchise en base, invoices say "TVA non applicable, art. 293 B du CGI". */
  vat_regime: z
    .enum(['normal', 'franchise'], { error: 'Régime de TVA : normal ou franchise' })
    .default('normal')
    .meta({ label: 'Régime de TVA' }),
  /** The "option pour le paiement de la taxe d'après les débits", printed on invoices when chosen. */
  vat_on_debits: z.boolean().default(false),
  phone: z.string().trim().max(40).default('').meta({ label: 'Téléphone' }),
  mobile: z.string().trim().max(40).default('').meta({ label: 'Mobile' }),
  email: z
    .union([z.literal(''), z.email('Adresse e-mail invalide')])
    .default('')
    .meta({ label: 'E-mail' }),
  web: z.string().trim().max(200).default('').meta({ label: 'Site web' }),
  address: addressSchema.prefault({}).meta({ label: 'Adresse' }),
  identifications: z.array(keyValueSchema).max(20).default([]),
  additional_info: z.array(keyValueSchema).max(20).default([]).meta({ label: 'Informations complémentaires' }),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** A logo as uploaded: a PNG, JPEG or WebP data URL of at most 1 MB (SVG is refused: it can carry scripts). */
export const LOGO_MAX_BYTES = 1024 * 1024;
export const logoUploadSchema = z.object({
  data_url: z
    .string({ error: 'Le logo est une image PNG, JPEG ou WebP' })
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 40, 'Le logo dépasse 1 Mo')
    .refine((url) => isBase64DataUrl(url, ['image/png', 'image/jpeg', 'image/webp']), 'Le logo doit être une image PNG, JPEG ou WebP')
    .meta({ label: 'Logo' }),
});

// Answers (the procedures' `.output()`).

/** The profile as answered: with its logo and, read-only, the account it is paid on (its default bank account). */
export const organizationProfileSchema = organizationSettingsSchema.extend({
  logo_url: z.string().nullable(),
  payment_account: paymentAccountSchema.nullable(),
});
export type OrganizationProfile = z.infer<typeof organizationProfileSchema>;
export const organizationWriteSchema = writeAnswer(organizationProfileSchema);
export const logoWriteSchema = writeAnswer(z.object({ logo_url: z.string() }));
