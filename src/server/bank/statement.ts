/**
 * A bank statement as read from any of the formats (camt.05x, OFX, QIF, CSV): plain data, so that reading a large
 * file happens in a worker thread and only these lines come back.
 */
export type StatementLine = {
  /** The line in the file (1-based), for the reasons of a refused one. */
  line: number;
  /** Booking date, YYYY-MM-DD. */
  date: string;
  valueDate: string | null;
  /** Signed decimal text, a credit positive: '-12.50'. */
  amount: string;
  currency: string;
  label: string;
  counterparty: string;
  /** The remittance reference or end-to-end id, when the bank gives one. */
  reference: string;
  /** The bank's own id of the line (camt AcctSvcrRef, OFX FITID), stable across files; '' when the format has none. */
  bankId: string;
};

import type { CsvMapping } from '../../shared/schemas/bank-csv';

export type { CsvMapping };

export type StatementFormat = 'camt.052' | 'camt.053' | 'camt.054' | 'ofx' | 'qif' | 'csv';

export type Statement = {
  format: StatementFormat;
  /**
   * The account the statement says it is for: an IBAN (camt), the bank's own account number when a camt gives no IBAN
   * (Othr), or a French bank, branch and account number (OFX).
   */
  account: { iban: string } | { other: string } | { bank: string; branch: string; number: string } | null;
  lines: StatementLine[];
  rejected: { line: number; reason: string }[];
  /** The CSV mapping used, to be remembered for the account. */
  csvMapping: CsvMapping | null;
  /**
   * The booked balance the bank states at the end of the statement (camt CLBD, OFX LEDGERBAL), signed decimal text on
   * its date; null when the format gives none (QIF, CSV, a camt.054 notification).
   */
  balance: { date: string; amount: string } | null;
};

export class StatementError extends Error {}

export const ACCEPTED_FORMATS = 'ISO 20022 camt.053, camt.052 ou camt.054 (XML), OFX, QIF ou CSV';

/** A French or plain decimal ('1 234,56', '-12.5', '+3') to signed decimal text; null when it is not one. */
export function decimalText(text: string): string | null {
  const cleaned = text.replace(/[\s\u00a0\u202f']/g, '').replace(/€|EUR/gi, '');
  if (cleaned === '') return null;
  // '1.234,56' (thousands dots) and '1,234.56' (thousands commas): the last separator is the decimal one.
  const lastComma = cleaned.lastIndexOf(',');
  const lastDot = cleaned.lastIndexOf('.');
  const decimal = lastComma > lastDot ? ',' : '.';
  const thousands = decimal === ',' ? /\./g : /,/g;
  const normal = cleaned.replace(thousands, '').replace(',', '.');
  if (!/^[-+]?\d+(\.\d{1,4})?$/.test(normal)) return null;
  const negative = normal.startsWith('-');
  const digits = normal.replace(/^[-+]/, '');
  return negative && !/^0+(\.0+)?$/.test(digits) ? `-${digits}` : digits;
}

/** 'DD/MM/YYYY', 'DD/MM/YY', 'DD-MM-YYYY', 'DD.MM.YYYY', 'YYYY-MM-DD', 'YYYYMMDD…' to YYYY-MM-DD; null otherwise. */
export function isoDateOf(text: string): string | null {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(t);
  const compactDate = /^(\d{4})(\d{2})(\d{2})/.exec(t);
  let text10: string | null = null;
  if (iso) text10 = `${iso[1]}-${iso[2]}-${iso[3]}`;
  else if (dayFirst) {
    const year = dayFirst[3]?.length === 2 ? `20${dayFirst[3]}` : dayFirst[3];
    text10 = `${year}-${dayFirst[2]?.padStart(2, '0')}-${dayFirst[1]?.padStart(2, '0')}`;
  } else if (compactDate) text10 = `${compactDate[1]}-${compactDate[2]}-${compactDate[3]}`;
  if (!text10) return null;
  const date = new Date(`${text10}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text10 ? null : text10;
}

/** Spaces collapsed, trimmed: how a label is kept and compared. */
export const cleanText = (text: string) => text.replace(/\s+/g, ' ').trim();
