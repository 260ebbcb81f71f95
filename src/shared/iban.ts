import { mod97 } from './mod97';

/** ISO 13616: a country, two check digits, then 11 to 30 letters or digits (15 to 34 characters in all). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
/** ISO 9362: bank, country, location, and an optional branch. */
const BIC_SHAPE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The electronic form of an IBAN or a BIC as people type them: no spaces, upper case. */
export const compactAccountCode = (text: string): string => text.replace(/\s+/g, '').toUpperCase();

/** ISO 13616: the shape, then the country and check digits moved to the end leave 1 modulo 97. */
export function isValidIban(text: string): boolean {
  const iban = compactAccountCode(text);
  return IBAN_SHAPE.test(iban) && mod97(`${iban.slice(4)}${iban.slice(0, 4)}`) === 1;
}

/** The paper form: groups of four, as banks print it. */
export const printedIban = (iban: string): string => compactAccountCode(iban).replace(/(.{4})(?=.)/g, '$1 ');

export const isValidBic = (text: string): boolean => BIC_SHAPE.test(compactAccountCode(text));
