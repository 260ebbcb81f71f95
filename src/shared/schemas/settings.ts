import { z } from 'zod';
import { numberError } from './fields';
import { DEFAULT_CURRENCY_FORMAT } from '../format';

/** Application settings: currency_format, its defaults in format.ts (DEFAULT_CURRENCY_FORMAT). */
const DEFAULTS = DEFAULT_CURRENCY_FORMAT;
export const currencyFormatSchema = z.object({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Code devise invalide (3 lettres, ex. EUR)')
    .default(DEFAULTS.currency)
    .meta({ label: 'Devise' }),
  currency_position: z.enum(['before', 'after']).default(DEFAULTS.currency_position),
  use_space: z.boolean().default(DEFAULTS.use_space),
  decimal: z.string().max(1, 'Le séparateur décimal tient en un caractère').default(DEFAULTS.decimal),
  thousand: z.string().max(1, 'Le séparateur de milliers tient en un caractère').default(DEFAULTS.thousand),
  precision: z.number().int().min(0, 'Précision entre 0 et 4').max(4, 'Précision entre 0 et 4').default(DEFAULTS.precision),
});
export type CurrencyFormat = z.infer<typeof currencyFormatSchema>;

/** Placeholders {line1} {line2} {postal_code} {city} {state} {country}; one address line per template line. */
export const DEFAULT_ADDRESS_FORMAT = '{line1}\n{line2}\n{postal_code} {city}\n{state}\n{country}';

export const themeSettingSchema = z.enum(['light', 'dark', 'system']);
export type ThemeSetting = z.infer<typeof themeSettingSchema>;

/** The server-side application settings of one organisation. `strict` so an unknown field is refused, not silently kept. */
export const appSettingsSchema = z
  .object({
    currency_format: currencyFormatSchema.prefault({}).meta({ label: 'Format monétaire' }),
    address_format: z
      .string()
      .max(500, "Le format d'adresse est trop long (500 caractères au plus)")
      .default(DEFAULT_ADDRESS_FORMAT)
      .meta({ label: 'Format d’adresse' }),
    theme: themeSettingSchema.default('light').meta({ label: 'Thème' }),
    /** Default payment term of new customers and documents, in days (C. com. L441-10: 60 days at most between businesses). */
    payment_days: z
      .number({ error: numberError('Délai de paiement : un nombre de jours') })
      .int()
      .min(0, 'Délai de paiement : 0 jour au moins')
      .max(365, 'Délai de paiement : 365 jours au plus')
      .default(30)
      .meta({ label: 'Délai de paiement' }),
    /** Late-payment penalty rate, % a year (C. com. L441-10: at least three times the legal interest rate). */
    late_penalty_rate: z
      .number({ error: numberError('Taux de pénalités : un nombre') })
      .min(0, 'Taux de pénalités : 0 % au moins')
      .max(100, 'Taux de pénalités : 100 % au plus')
      .default(12)
      .meta({ label: 'Taux de pénalités' }),
    /** Flat recovery indemnity owed by business customers paying late (C. com. D441-5: 40 €). */
    recovery_indemnity: z
      .number({ error: numberError('Indemnité : un montant') })
      .min(40, 'L’indemnité forfaitaire est de 40 € au moins (C. com. D441-5)')
      .max(10000)
      .default(40)
      .meta({ label: 'Indemnité de recouvrement' }),
    /** Escompte conditions printed on invoices (CGI art. 242 nonies A). */
    escompte: z
      .string()
      .trim()
      .max(500, 'Escompte : 500 caractères au plus')
      .default("Pas d'escompte pour paiement anticipé")
      .meta({ label: 'Escompte' }),
    /** Several taxes on one line or catalogue item (e.g. VAT and a local tax); off: one VAT rate each. */
    multiple_taxes_per_line: z
      .boolean({ error: 'Plusieurs taxes par ligne : true ou false' })
      .default(false)
      .meta({ label: 'Plusieurs taxes par ligne' }),
  })
  .strict();
export type AppSettings = z.infer<typeof appSettingsSchema>;

export const defaultAppSettings = (): AppSettings => appSettingsSchema.parse({});
