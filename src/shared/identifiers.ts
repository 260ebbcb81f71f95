// French and EU business identifiers: what a customer or the organisation must carry on a compliant invoice
// (CGI art. 242 nonies A: SIREN/SIRET and intra-community VAT numbers).

const digitsOnly = (value: string) => value.replace(/[\s.-]/g, '');

/** Luhn checksum, as INSEE uses for SIREN and SIRET. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** La Poste's establishments (SIREN 356 000 000) break Luhn; INSEE checks that their SIRET digits sum to a multiple of 5. */
const LA_POSTE_SIREN = '356000000';

export function normalizeSiren(value: string): string {
  return digitsOnly(value);
}

export function isValidSiren(value: string): boolean {
  const siren = digitsOnly(value);
  return /^\d{9}$/.test(siren) && luhnValid(siren);
}

export function isValidSiret(value: string): boolean {
  const siret = digitsOnly(value);
  if (!/^\d{14}$/.test(siret)) return false;
  if (siret.startsWith(LA_POSTE_SIREN)) {
    const sum = [...siret].reduce((s, c) => s + Number(c), 0);
    return sum % 5 === 0;
  }
  return luhnValid(siret) && isValidSiren(siret.slice(0, 9));
}

/** A French company identifier as users type it: a SIREN (9 digits) or a SIRET (14 digits). */
export function siretOrSirenError(value: string): string | null {
  const digits = digitsOnly(value);
  if (!/^\d+$/.test(digits)) return 'Le SIREN/SIRET ne contient que des chiffres';
  if (digits.length === 9) return isValidSiren(digits) ? null : 'SIREN invalide : la clé de contrôle ne correspond pas';
  if (digits.length === 14) return isValidSiret(digits) ? null : 'SIRET invalide : la clé de contrôle ne correspond pas';
  return 'Le SIREN compte 9 chiffres, le SIRET 14';
}

/** The French VAT key: (12 + 3 × (SIREN mod 97)) mod 97, on two digits. */
export function frenchVatNumber(siren: string): string {
  const digits = digitsOnly(siren);
  if (!isValidSiren(digits)) throw new Error(`SIREN invalide : ${siren}`);
  const key = (12 + 3 * (Number(digits) % 97)) % 97;
  return `FR${String(key).padStart(2, '0')}${digits}`;
}

/** VIES formats of the EU member states (plus XI for Northern Ireland): country code then the national part. */
const VAT_FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d{7}[A-W][A-I]?$|^\d[A-Z+*]\d{5}[A-W]$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

export function normalizeVatNumber(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase();
}

/** Null when valid; otherwise a French message saying what is wrong. French numbers also have their key checked. */
export function vatNumberError(value: string): string | null {
  const vat = normalizeVatNumber(value);
  const country = vat.slice(0, 2);
  const format = VAT_FORMATS[country];
  if (!format) return 'Numéro de TVA intracommunautaire invalide : il commence par le code pays (FR, DE, BE…)';
  if (!format.test(vat.slice(2))) return `Numéro de TVA intracommunautaire invalide pour le pays ${country}`;
  if (country === 'FR' && /^\d{2}$/.test(vat.slice(2, 4))) {
    const siren = vat.slice(4);
    if (!isValidSiren(siren) || frenchVatNumber(siren) !== vat) return 'Numéro de TVA invalide : la clé ne correspond pas au SIREN';
  }
  return null;
}
