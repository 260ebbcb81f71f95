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

/** Country → IBAN length, for the SEPA countries a French business pays and is paid from. */
const LENGTHS: Record<string, number> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** The electronic form of an IBAN or a BIC as people type them: no spaces nor dashes, upper case. */
export const compactAccountCode = (text: string): string => text.replace(/[\s-]+/g, '').toUpperCase();

/** Why an IBAN is refused, in French, or null when it is valid. */
export function ibanProblem(text: string): string | null {
  const iban = compactAccountCode(text);
  if (!IBAN_SHAPE.test(iban)) return 'un IBAN commence par le code pays et deux chiffres (ex. FR76 3000 …)';
  const country = iban.slice(0, 2);
  const length = LENGTHS[country];
  if (length !== undefined && iban.length !== length) return `un IBAN ${country} compte ${length} caractères (${iban.length} saisis)`;
  if (mod97(`${iban.slice(4)}${iban.slice(0, 4)}`) !== 1) return 'la clé de contrôle ne correspond pas : vérifiez chaque caractère';
  return null;
}

/** ISO 13616: the shape, then the country and check digits moved to the end leave 1 modulo 97. */
export const isValidIban = (text: string): boolean => ibanProblem(text) === null;

/** The paper form: groups of four, as banks print it. */
export const printedIban = (iban: string): string => compactAccountCode(iban).replace(/(.{4})(?=.)/g, '$1 ');

export const isValidBic = (text: string): boolean => BIC_SHAPE.test(compactAccountCode(text));
