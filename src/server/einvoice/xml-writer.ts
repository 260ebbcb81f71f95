import { INPUT_SCALE, rescale, unitsToDecimalText } from '../../shared/money';

/**
 * A few lines of XML writing, enough for the two EN 16931 syntaxes: elements are strings, an element without content
 * is left out (the schemas want no empty elements), text and attribute values are escaped here and nowhere else.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Whether XML 1.0 can carry a code point: not the C0 controls other than tab, newline and carriage return, nor U+FFFE/U+FFFF, nor a lone surrogate. */
const allowed = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code < 0xd800) || (code > 0xdfff && code < 0xfffe) || code > 0xffff;

/** Text as XML character data: what XML cannot carry is dropped, the five special characters escaped. */
export const escapeXml = (text: string) =>
  Array.from(text)
    .filter((c) => allowed(c.codePointAt(0) ?? 0))
    .join('')
    .replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

type Content = string | false | null | undefined | readonly Content[];
const flatten = (content: Content): string =>
  Array.isArray(content) ? (content as readonly Content[]).map(flatten).join('') : typeof content === 'string' ? content : '';

/** `<name attrs>children</name>`; children are elements already written. Nothing when there are none. */
export function el(name: string, children: Content, attrs: Record<string, string | undefined> = {}): string {
  const inner = flatten(children);
  if (!inner) return '';
  const attributes = Object.entries(attrs)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${escapeXml(v as string)}"`)
    .join('');
  return `<${name}${attributes}>${inner}</${name}>`;
}

/** An element holding text (escaped); nothing when the text is empty or missing. */
export const text = (name: string, value: string | undefined | null, attrs: Record<string, string | undefined> = {}) =>
  value === undefined || value === null || value.trim() === '' ? '' : el(name, escapeXml(value), attrs);

/** Currency units to '1234.50' (never a localised decimal: the rules crash on '1 234,50'). */
export const amountText = (units: bigint, precision: number) => unitsToDecimalText(units, precision);

/** Units of 10^-4 (quantities, unit prices, rates) to a decimal without trailing zeros past the second decimal. */
export function decimal4(units: bigint, minDecimals = 2): string {
  for (let d = minDecimals; d < INPUT_SCALE; d++) {
    const scaled = rescale(units, INPUT_SCALE, d);
    if (rescale(scaled, d, INPUT_SCALE) === units) return unitsToDecimalText(scaled, d);
  }
  return unitsToDecimalText(units, INPUT_SCALE);
}

/** '2026-11-02' → '20261102' (format 102). */
export const compactDate = (iso: string) => iso.replaceAll('-', '');
