/**
 * French typography's text rules, without numbers (typography.ts re-exports them beside the number formats): the
 * no-break spaces before the signs, the minus sign and the typographic apostrophe. Pure text in, text out.
 */

/** A no-break space: before « : » and between an amount and « € ». */
export const NBSP = '\u00a0';
/** A narrow no-break space: before « ; ! ? % » and between groups of thousands. */
export const NARROW_NBSP = '\u202f';
/** The minus sign of French typography (U+2212), never the hyphen. */
export const MINUS = '\u2212';
/** The typographic apostrophe the whole app writes (« l’avoir », never « l'avoir »). */
export const APOSTROPHE = '’';

/** Straight apostrophes between letters become typographic ones: « l'avoir » → « l’avoir ». */
export const curlyApostrophes = (text: string): string => text.replace(/(\p{L})'(?=\p{L})/gu, `$1${APOSTROPHE}`);

/** What must print exactly as typed: a web address (its « %20 » or « ' ») or an e-mail address. */
const VERBATIM = /(\b(?:https?|mailto):\S+|[\w.+'%-]+@[\w-]+(?:\.[\w-]+)+)/;

/** Applies `change` to the text around its web and e-mail addresses, which stay as typed. */
const outsideAddresses = (text: string, change: (part: string) => string): string =>
  text
    .split(VERBATIM)
    .map((part, i) => (i % 2 === 1 ? part : change(part)))
    .join('');

/**
 * The spaces French puts before « : ; ! ? % € », made no-break (a no-break space before « : » and « € », a narrow one
 * before the others), so that a sign never starts a line: 'Total : 40 €' keeps its sign with its word. A sign glued
 * to a number (« 20% », « 40€ ») gets its space. Addresses and times (« https://… », « 10:30 ») are left alone: only a
 * space already typed is changed, except after a number.
 */
export const withFrenchSpaces = (text: string): string =>
  outsideAddresses(text, (part) =>
    part
      .replace(/[ \u00a0\u202f]+([;!?])/g, `${NARROW_NBSP}$1`)
      .replace(/[ \u00a0\u202f]+:(?=\s|$)/g, `${NBSP}:`)
      .replace(/(\d)[ \u00a0\u202f]?%/g, `$1${NARROW_NBSP}%`)
      .replace(/(\d)[ \u00a0\u202f]?€/g, `$1${NBSP}€`),
  );

/** French text as it should print: typographic apostrophes and no-break spaces before its signs. */
export const frenchTypography = (text: string): string => withFrenchSpaces(outsideAddresses(text, curlyApostrophes));
