import { formatDecimal } from './format';
import { money, mul, toDecimalString } from './money';

/**
 * The legal interest rate "pour tous les autres cas" (creditors other than individuals acting outside their
 * profession), fixed each half-year by arrêté (C. monétaire et financier L313-2, D313-1-A). C. com. L441-10 II: late
 * penalties between businesses are at least three times this rate. Only rates read in a published source are listed;
 * add each new half-year's rate when its arrêté is published (late June, late December).
 */
export interface LegalInterestRate {
  /** First day the rate applies (1 January or 1 July). */
  from: string;
  /** Percent a year, as the arrêté writes it (2 decimals), kept as text so no float enters the floor. */
  rate: string;
  /** Which arrêté fixed it. */
  source: string;
}

export const LEGAL_INTEREST_RATES: readonly LegalInterestRate[] = [
  { from: '2024-01-01', rate: '5.07', source: 'arrêté du 21 décembre 2023' },
  { from: '2024-07-01', rate: '4.92', source: 'arrêté du 26 juin 2024' },
  { from: '2025-01-01', rate: '3.71', source: 'arrêté du 17 décembre 2024' },
  { from: '2025-07-01', rate: '2.76', source: 'arrêté du 19 juin 2025 (JO du 24 juin 2025)' },
  { from: '2026-01-01', rate: '2.62', source: 'arrêté du 15 décembre 2025 (JO du 26 décembre 2025)' },
];

/** '1er semestre 2026', '2e semestre 2025'. */
export const halfYearLabel = (from: string): string => `${from.slice(5, 7) === '01' ? '1er' : '2e'} semestre ${from.slice(0, 4)}`;

/** The start of the half-year a date (YYYY-MM-DD) falls in. */
const halfYearOf = (date: string): string => `${date.slice(0, 4)}-${Number(date.slice(5, 7)) <= 6 ? '01' : '07'}-01`;

export interface RateInForce extends LegalInterestRate {
  /** False when the date is past the last half-year listed: the last known rate stands in for the unpublished one. */
  current: boolean;
}

/**
 * The rate in force on a date: the latest half-year that started on or before it. Past the table's end, the last
 * known rate (flagged `current: false`); before its start, the first one.
 */
export function legalInterestRateOn(date: string): RateInForce {
  const first = LEGAL_INTEREST_RATES[0];
  if (!first) throw new Error('LEGAL_INTEREST_RATES is empty');
  const found = LEGAL_INTEREST_RATES.filter((r) => r.from <= date).at(-1) ?? first;
  const last = LEGAL_INTEREST_RATES.at(-1) ?? first;
  return { ...found, current: found !== last || halfYearOf(date) === last.from };
}

export interface PenaltyFloor {
  /** 3 × the legal rate, percent a year, exact. */
  floor: string;
  rateInForce: RateInForce;
}

/** C. com. L441-10 II: the lowest late-penalty rate an invoice between businesses may state on `date`. */
export function latePenaltyFloor(date: string): PenaltyFloor {
  const rateInForce = legalInterestRateOn(date);
  return { floor: toDecimalString(mul(rateInForce.rate, 3), 2), rateInForce };
}

/** '7,86 % (1er semestre 2026)', or past the table's end '7,86 % (dernier taux publié connu : 1er semestre 2026)'. */
export function latePenaltyFloorText(date: string): string {
  const { floor, rateInForce } = latePenaltyFloor(date);
  const period = halfYearLabel(rateInForce.from);
  return `${formatDecimal(floor, 2)} % (${rateInForce.current ? period : `dernier taux publié connu : ${period}`})`;
}

/** The refusal of a rate under the floor, in French, naming the floor and its half-year; null when the rate is enough. */
export function latePenaltyRateError(rate: number, date: string): string | null {
  if (money(rate).gte(money(latePenaltyFloor(date).floor))) return null;
  return `Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit ${latePenaltyFloorText(date)}`;
}
