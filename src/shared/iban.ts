/**
 * IBAN (ISO 13616) and BIC (ISO 9362): written as people type them (spaces, lower case), kept compact and upper case,
 * checked by the IBAN's two check digits (ISO 7064 mod 97-10), which catch any single wrong character and almost any
 * swap of two.
 */

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

export const compactIban = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

/** The remainder of a number written in base 36 letters (A = 10 … Z = 35) by 97, digit by digit (no big integers). */
export function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = Number.parseInt(char, 36);
    if (Number.isNaN(value)) return -1;
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder;
}

/** Why an IBAN is refused, in French, or null when it is valid. */
export function ibanProblem(text: string): string | null {
  const iban = compactIban(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return 'un IBAN commence par le code pays et deux chiffres (ex. FR76 3000 …)';
  const country = iban.slice(0, 2);
  const length = LENGTHS[country];
  if (length !== undefined && iban.length !== length) return `un IBAN ${country} compte ${length} caractères (${iban.length} saisis)`;
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) return 'la clé de contrôle ne correspond pas : vérifiez chaque caractère';
  return null;
}

export const isValidIban = (text: string) => ibanProblem(text) === null;

/** 'FR7630004000031234567890143' → 'FR76 3000 4000 0312 3456 7890 143'. */
export const formatIban = (text: string) => compactIban(text).replace(/(.{4})(?=.)/g, '$1 ');

export const compactBic = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** 8 or 11 characters: bank, country, location, optional branch. */
export const isValidBic = (text: string) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(compactBic(text));
