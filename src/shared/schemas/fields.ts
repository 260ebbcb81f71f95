import { z } from 'zod';
import { normalizeVatNumber, siretOrSirenError, vatNumberError } from '../identifiers';
import { countryZone, euVatCountry } from '../eu-countries';

/**
 * The message of a number field that did not get a number: `whenNaN` for what a form typed but could not read (an
 * empty or non-numeric field reaches the schema as NaN; JSON never sends one), else `message`.
 */
export const numberError =
  (message: string, whenNaN = 'Une valeur est attendue') =>
  (issue: { input?: unknown }): string =>
    Number.isNaN(issue.input) ? whenNaN : message;

/** A SIREN or SIRET as typed ('552 032 534'), optional; the message says what is wrong (length or key). */
export const sirenOrSiretField = () =>
  z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || siretOrSirenError(v) === null, {
      error: (issue) => siretOrSirenError(String(issue.input)) ?? 'SIREN/SIRET invalide',
    });

/** An intra-community VAT number, optional, normalised ('fr 27 552…' → 'FR27552…'); French keys are checked. */
export const vatNumberField = () =>
  z
    .string()
    .trim()
    .default('')
    .transform((v) => (v ? normalizeVatNumber(v) : ''))
    .refine((v) => v === '' || vatNumberError(v) === null, {
      error: (issue) => vatNumberError(String(issue.input)) ?? 'Numéro de TVA invalide',
    });

/**
 * A supplier's VAT number: a member state's one is checked and normalised like any EU VAT number; another country's
 * tax id ('NO999999999MVA', 'CHE-123.456.789 MWST') is kept as written, since the supplier's invoice carries it.
 */
export const supplierTaxIdField = () =>
  z
    .string()
    .trim()
    .max(40, 'N° TVA du fournisseur : 40 caractères au plus')
    .default('')
    .transform((v) => (euVatCountry(v) ? normalizeVatNumber(v) : v))
    .refine((v) => !euVatCountry(v) || vatNumberError(v) === null, {
      error: (issue) => vatNumberError(String(issue.input)) ?? 'Numéro de TVA invalide',
    });

/**
 * A customer's VAT number or, outside the EU, its local tax id ('CHE-123.456.789 TVA', an EIN…), optional. A number
 * that starts with a member state's prefix is normalised like an EU VAT number; any other is kept as typed. Which
 * format is required depends on the customer's country: see `taxIdError`.
 */
export const taxIdField = () =>
  z
    .string()
    .trim()
    .max(40, 'Numéro de TVA ou identifiant fiscal : 40 caractères au plus')
    .default('')
    .transform((v) => (euVatCountry(v) ? normalizeVatNumber(v) : v));

/**
 * Null when the tax id suits a customer established in `country`: in France or another member state, a valid EU VAT
 * number; outside the EU, any national tax id (CGI art. 259-1, 262 I: no EU VAT number exists there).
 */
export function taxIdError(taxId: string, country: string): string | null {
  if (!taxId) return null;
  if (countryZone(country) !== 'outside_eu') return vatNumberError(taxId);
  return /^[\p{L}\p{N}][\p{L}\p{N} .\-/]*$/u.test(taxId)
    ? null
    : 'Identifiant fiscal : lettres, chiffres, espaces, points, tirets et barres obliques seulement';
}
