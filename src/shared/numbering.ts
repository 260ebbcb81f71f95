import { defined } from './defined';
// Document and customer numbers. Pure: the counter itself is the server's, incremented in the
// transaction that issues the document (CGI art. 242 nonies A: one chronological series without gaps).

export interface DocumentNumbering {
  prefix: string;
  suffix: string;
  digit_count: number;
}

export interface CustomerNumbering {
  prefix: string;
  separator: string;
  digit_count: number;
}

/** What prefix and suffix placeholders are filled from: the document's date (YYYY-MM-DD) and its context. */
export interface NumberingContext {
  date: string;
  customer_id?: number | string | null;
  currency?: string | null;
  /** The order (purchase order) number the document refers to. */
  order?: string | number | null;
}

export const INVALID_DOCUMENT_NUMBER = '{INVALID TYPE OR NUMBER DOCUMENT}';
export const INVALID_CUSTOMER_NUMBER = 'INVALID CLIENT ID';
export const NUMBERING_PLACEHOLDERS = ['year', 'month', 'day', 'quarter', 'customer_id', 'currency', 'order'] as const;

const pad = (n: number, width: number) => String(n).padStart(Math.max(0, Math.min(width, 12)), '0');

/** Replaces {year} {month} {day} {quarter} {customer_id} {currency} {order}; unknown braces stay as typed. */
export function fillPlaceholders(template: string, ctx: NumberingContext): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(ctx.date);
  const [year, month, day] = match
    ? [defined(match[1], 'match[1]'), defined(match[2], 'match[2]'), defined(match[3], 'match[3]')]
    : ['', '', ''];
  const values: Record<string, string> = {
    year,
    month,
    day,
    quarter: month ? `Q${Math.ceil(Number(month) / 3)}` : '',
    customer_id: ctx.customer_id === null || ctx.customer_id === undefined ? '' : String(ctx.customer_id),
    currency: ctx.currency ?? '',
    order: ctx.order === null || ctx.order === undefined ? '' : String(ctx.order),
  };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? defined(values[name], 'values[name]') : whole));
}

/** Prefix + zero-padded counter + suffix; the fallback when the type's numbering or the counter is missing. */
export function formatDocumentNumber(
  numbering: DocumentNumbering | null | undefined,
  counter: number | null | undefined,
  ctx: NumberingContext,
): string {
  if (!numbering || counter === null || counter === undefined || !Number.isInteger(counter) || counter < 1) return INVALID_DOCUMENT_NUMBER;
  return `${fillPlaceholders(numbering.prefix, ctx)}${pad(counter, numbering.digit_count)}${fillPlaceholders(numbering.suffix, ctx)}`;
}

/** prefix + separator + zero-padded counter; 'INVALID CLIENT ID' without a counter; five zeros + number without settings. */
export function formatCustomerNumber(numbering: CustomerNumbering | null | undefined, counter: number | null | undefined): string {
  if (counter === null || counter === undefined || !Number.isInteger(counter) || counter < 1) return INVALID_CUSTOMER_NUMBER;
  if (!numbering) return `00000${counter}`;
  return `${numbering.prefix}${numbering.separator}${pad(counter, numbering.digit_count)}`;
}
