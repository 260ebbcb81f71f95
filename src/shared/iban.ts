import { mod97 } from './mod97';

/**
 * IBAN (ISO 13616) and BIC (ISO 9362): written as people type them (spaces, lower case), kept compact and upper case,
 * checked by the IBAN's two check digits (ISO 7064 mod 97-10), which catch any single wrong character and almost any
 * swap of two.
 */

/** ISO 13616: a country, two check digits, then 11 to 30 letters or digits (15 to 34 characters in all). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
/** ISO 9362: bank, country, location, and an optional branch. */
const BIC_SHAPE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The electronic form of an IBAN or a BIC as people type them: no spaces, upper case. */
export const compactAccountCode = (text: string): string => text.replace(/\s+/g, '').toUpperCase();

/** Why an IBAN is refused, in French, or null when it is valid. */
export function ibanProblem(text: string): string | null {
  const iban = compactAccountCode(text);
  if (!IBAN_SHAPE.test(iban)) return 'un IBAN commence par le code pays et deux chiffres (ex. FR76 3000 …)';
  if (mod97(`${iban.slice(4)}${iban.slice(0, 4)}`) !== 1) return 'la clé de contrôle ne correspond pas : vérifiez chaque caractère';
  return null;
}

/** ISO 13616: the shape, then the country and check digits moved to the end leave 1 modulo 97. */
export const isValidIban = (text: string): boolean => ibanProblem(text) === null;

/** The paper form: groups of four, as banks print it. */
export const printedIban = (iban: string): string => compactAccountCode(iban).replace(/(.{4})(?=.)/g, '$1 ');

export const isValidBic = (text: string): boolean => BIC_SHAPE.test(compactAccountCode(text));
