/**
 * ISO 7064 MOD 97-10 over an alphanumeric text, as both the IBAN (ISO 13616) and the creditor reference (ISO 11649)
 * compute it: each letter stands for two digits (A = 10 … Z = 35), and the remainder is taken digit by digit so a
 * 34-character IBAN never needs more than a small integer.
 */
export function mod97(alphanumeric: string): number {
  let remainder = 0;
  for (const char of alphanumeric.toUpperCase()) {
    const code = char.charCodeAt(0);
    const value = code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 90 ? code - 55 : Number.NaN;
    if (Number.isNaN(value)) throw new RangeError(`mod97: « ${char} » is not a letter or a digit`);
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder;
}

/** The two check digits that make `body + prefix + digits` leave 1: what IBANs and RF references put after their letters. */
export function mod97CheckDigits(body: string, prefix: string): string {
  return String(98 - mod97(`${body}${prefix}00`)).padStart(2, '0');
}
