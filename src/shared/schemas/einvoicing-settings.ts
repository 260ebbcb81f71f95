import { z } from 'zod';

/**
 * Paramètres → Facturation électronique: how the organisation reaches its Plateforme Agréée. 'folder' is the folder
 * connector every organisation used before this setting existed (its default); 'afnor' the platform's XP Z12-013
 * API (Flow Service, Directory Service) with OAuth2 client credentials or a static bearer token.
 */
export const EINVOICING_MODES = ['none', 'folder', 'afnor'] as const;
export type EinvoicingMode = (typeof EINVOICING_MODES)[number];

export const EINVOICING_MODE_LABELS: Record<EinvoicingMode, string> = {
  none: 'Aucune',
  folder: 'Dossier',
  afnor: 'Plateforme agréée (API AFNOR XP Z12-013)',
};

export const EINVOICING_SYNTAXES = ['factur-x', 'cii', 'ubl'] as const;
export const EINVOICING_SYNTAX_LABELS: Record<(typeof EINVOICING_SYNTAXES)[number], string> = {
  'factur-x': 'Factur-X (PDF + XML CII)',
  cii: 'UN/CEFACT CII',
  ubl: 'UBL 2.1',
};

/**
 * The XP Z12-013 flow profile declared with each invoice (`flowProfile`). Facturier writes EN 16931 invoices with the
 * French CIUS rules (BR-FR): « CIUS » by default; a platform that asks every flow to be declared in its extended
 * profile (which an EN 16931 invoice also satisfies) gets « Extended-CTC-FR ».
 */
export const EINVOICING_PROFILES = ['CIUS', 'Extended-CTC-FR'] as const;
export type EinvoicingProfile = (typeof EINVOICING_PROFILES)[number];
export const EINVOICING_PROFILE_LABELS: Record<EinvoicingProfile, string> = {
  CIUS: 'EN 16931 avec les règles françaises (CIUS)',
  'Extended-CTC-FR': 'Étendu (EXTENDED-CTC-FR)',
};

/** The name of each field in messages, so that a 400 says which one is wrong. */
export const EINVOICING_FIELD_LABELS = {
  mode: 'Connexion',
  flow_url: 'URL du Flow Service',
  directory_url: 'URL du Directory Service',
  token_url: 'URL du jeton OAuth2',
  client_id: 'Identifiant client OAuth2',
  client_secret: 'Secret client OAuth2',
  token: 'Jeton d’accès',
  pa_matricule: 'Matricule de la plateforme',
  syntax: 'Format des factures',
  profile: 'Profil des factures',
} as const;
type Field = keyof typeof EINVOICING_FIELD_LABELS;

/** Why a platform URL is refused ('' = not given), or null. Loopback over http is the server's call (OUTBOUND_ALLOW_PRIVATE). */
export function platformUrlError(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'adresse invalide (ex. https://api.plateforme.fr/flow-service)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'l’adresse doit commencer par https://';
  if (url.username || url.password) return 'pas d’identifiant ni de mot de passe dans l’adresse (ils vont dans les champs prévus)';
  if (url.search || url.hash) return 'pas de paramètres après « ? » ou « # »';
  return null;
}

const text = (field: Field, max: number) =>
  z
    .string({ error: `${EINVOICING_FIELD_LABELS[field]} : du texte est attendu` })
    .trim()
    .max(max, `${EINVOICING_FIELD_LABELS[field]} : ${max} caractères au plus`)
    .meta({ label: EINVOICING_FIELD_LABELS[field] });

const urlField = (field: Field) =>
  text(field, 500)
    .refine((v) => v === '' || platformUrlError(v) === null, {
      error: (issue) => `${EINVOICING_FIELD_LABELS[field]} : ${platformUrlError(String(issue.input)) ?? 'adresse invalide'}`,
    })
    .transform((v) => v.replace(/\/+$/, ''))
    .default('');

/**
 * The PUT body. A secret left out (or empty) keeps the one stored; the service checks what depends on the mode and
 * on what is stored (services/einvoicing-settings.ts).
 */
export const einvoicingSettingsInputSchema = z
  .object({
    mode: z.enum(EINVOICING_MODES, { error: 'Connexion : « none », « folder » ou « afnor » attendu' }).meta({ label: 'Connexion' }),
    flow_url: urlField('flow_url'),
    directory_url: urlField('directory_url'),
    token_url: urlField('token_url'),
    client_id: text('client_id', 200).default(''),
    client_secret: text('client_secret', 2000).optional(),
    token: text('token', 8000).optional(),
    pa_matricule: text('pa_matricule', 4)
      .refine((v) => v === '' || /^[A-Za-z0-9]{4}$/.test(v), 'Matricule de la plateforme : 4 lettres ou chiffres attendus (ex. 0042)')
      .default(''),
    syntax: z
      .enum(EINVOICING_SYNTAXES, { error: 'Format des factures : « factur-x », « cii » ou « ubl » attendu' })
      .default('factur-x')
      .meta({ label: 'Format des factures' }),
    profile: z
      .enum(EINVOICING_PROFILES, { error: 'Profil des factures : « CIUS » ou « Extended-CTC-FR » attendu' })
      .default('CIUS')
      .meta({ label: 'Profil des factures' }),
  })
  .strict();
export type EinvoicingSettingsInput = z.input<typeof einvoicingSettingsInputSchema>;

/** What GET answers: never a secret, only whether one is stored. */
export const einvoicingSettingsSchema = z.object({
  mode: z.enum(EINVOICING_MODES),
  flow_url: z.string(),
  directory_url: z.string(),
  token_url: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  token_set: z.boolean(),
  pa_matricule: z.string(),
  syntax: z.enum(EINVOICING_SYNTAXES),
  profile: z.enum(EINVOICING_PROFILES),
});
export type EinvoicingSettings = z.infer<typeof einvoicingSettingsSchema>;

export const einvoicingCheckSchema = z.object({ flow: z.literal('ok'), directory: z.literal('ok') });

/**
 * The organisation's own line in the platform's directory, read by its SIREN: the electronic address its invoices carry
 * as the seller's (BT-34, scheme 0225) and its routing code. `warning` says in French what the user must do when the
 * organisation is absent, has no SIREN, or the last reading failed ('' otherwise).
 */
export const ownDirectorySchema = z.object({
  status: z.enum(['unknown', 'listed', 'absent']),
  siren: z.string(),
  electronic_address: z.string(),
  address_scheme: z.string(),
  routing_code: z.string(),
  checked_at: z.string().nullable(),
  warning: z.string(),
});
export type OwnDirectory = z.infer<typeof ownDirectorySchema>;
