import { z } from 'zod';
import { normalizeVatNumber, siretOrSirenError, vatNumberError } from '../identifiers';

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
