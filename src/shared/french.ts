/**
 * French grammar the screens and mails need, in one place: « de » before a name, and plurals. A hand-rolled
 * `n > 1 ? 's' : ''` elsewhere gets 0 and 1,5 right by luck and « 1 jours » wrong; these helpers are the rule.
 */

/** A vowel (accented or not) or a mute-looking « y ». An « h » is not elided: « de Hollande » and « d’Hélène » both
 * exist, and a wrong « d’ » before an aspirated h reads worse than a missing one. */
const VOWEL_START = /^[aeiouyàâäéèêëîïôöùûüÿæœ]/i;

/** Whether « de » / « le » / « que » elide before this word (« d’Atelier », « l’avoir »). */
export const elides = (word: string): boolean => VOWEL_START.test(word.trim());

/** « de Dupont », « d’Atelier » — the apostrophe is the typographic one the whole app writes. */
export const deName = (name: string): string => (elides(name) ? `d’${name.trim()}` : `de ${name.trim()}`);

/**
 * Elides « de » before each `{placeholder}` whose value starts with a vowel, as a mail template is filled:
 * 'Facture {document_number} de {organization_name}' with « Atelier » gives « … d’Atelier ». `value` fills one
 * placeholder (or answers null to leave it as written); « de » must be a whole word right before the brace.
 */
export function fillWithElision(template: string, value: (name: string) => string | null): string {
  return template.replace(/(?:(?<!\p{L})([dD])e )?\{([^{}]*)\}/gu, (whole, d: string | undefined, name: string) => {
    const filled = value(name);
    if (filled === null) return whole;
    if (d === undefined) return filled;
    return elides(filled) ? `${d}’${filled}` : `${d}e ${filled}`;
  });
}

/** French counts the plural from 2: « 0 jour », « 1,5 jour », « 2 jours » (Académie française). */
export function isPlural(count: number | string): boolean {
  const n = typeof count === 'number' ? count : Number(count.replace(/\s/g, '').replace(',', '.'));
  return Number.isFinite(n) && Math.abs(n) >= 2;
}

/** The word for a count: pluralWord(2, 'jour') = 'jours'; pluralWord(3, 'cheval', 'chevaux') = 'chevaux'. */
export const pluralWord = (count: number | string, one: string, many = `${one}s`): string => (isPlural(count) ? many : one);

/** The count and its word: plural(2, 'jour') = '2 jours'; `shown` prints the count otherwise (e.g. '1 200'). */
export const plural = (count: number | string, one: string, many = `${one}s`, shown = String(count)): string =>
  `${shown} ${pluralWord(count, one, many)}`;

/** Units written as words take the plural (« 2 jours », « 3 forfaits »); symbols and abbreviations never do. */
const UNIT_SYMBOLS = new Set(['u', 'h', 'min', 'kg', 'g', 'mg', 'm', 'cm', 'mm', 'km', 'l', 'cl', 'ml', 'pce', 'pcs', 'ht', 'ttc', 'kwh']);

/** A line's unit after its quantity: unitWord('2', 'jour') = 'jours', unitWord(2, 'kg') = 'kg', 'mois' stays. */
export function unitWord(quantity: number | string, unit: string): string {
  const word = unit.trim();
  if (!isPlural(quantity) || UNIT_SYMBOLS.has(word.toLowerCase())) return word;
  if (!/^[a-zàâäéèêëîïôöùûüç]{3,}$/.test(word) || /[sxz]$/.test(word)) return word;
  return `${word}s`;
}

/** The definite article: theNoun('devis', false) = 'le devis', theNoun('proforma', true) = 'la proforma', 'l’avoir'. */
export const theNoun = (noun: string, feminine: boolean): string => (elides(noun) ? `l’${noun}` : `${feminine ? 'la' : 'le'} ${noun}`);

// The signs and spaces live with the rest of French typography; kept importable from here.
export { NARROW_NBSP, percentText } from './typography';
