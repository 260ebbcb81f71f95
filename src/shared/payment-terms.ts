import { formatDateShort } from './format';

/**
 * C. com. L441-10 I, between businesses: "le délai convenu entre les parties pour régler les sommes dues ne peut
 * dépasser soixante jours à compter de la date d'émission de la facture. Par dérogation, un délai maximal de
 * quarante-cinq jours fin de mois à compter de la date d'émission de la facture peut être convenu entre les parties,
 * sous réserve que ce délai soit expressément stipulé par contrat et qu'il ne constitue pas un abus manifeste à
 * l'égard du créancier." The CEPC (economie.gouv.fr, "sur la computation des délais") accepts two readings of
 * "45 jours fin de mois": 45 days then the end of that month, or the end of the invoice's month then 45 days.
 * So: up to 60 days is allowed; beyond it only the later of those 45-days-end-of-month dates, and only when agreed
 * in the contract; beyond both the term is over the legal cap. Individuals (consumers) are not concerned.
 */

const DAY = 86_400_000;
const time = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
/** A calendar date `days` later (or earlier), in UTC so that no time zone moves it: the one date arithmetic. */
export const addDays = (date: string, days: number) => iso(time(date) + days * DAY);
/** The last day of the month of a date. */
const endOfMonth = (date: string) => {
  const d = new Date(time(date));
  return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
};

export interface PaymentTermLimits {
  /** Invoice date + 60 days: the general cap. */
  sixtyDays: string;
  /** 45 days, then the end of that month. */
  endOfMonthAfter45Days: string;
  /** The end of the invoice's month, then 45 days. */
  fortyFiveDaysAfterEndOfMonth: string;
  /** The later of the two 45-days-end-of-month readings: the latest an agreed "45 jours fin de mois" reaches. */
  agreedEndOfMonth: string;
}

export function paymentTermLimits(date: string): PaymentTermLimits {
  const endOfMonthAfter45Days = endOfMonth(addDays(date, 45));
  const fortyFiveDaysAfterEndOfMonth = addDays(endOfMonth(date), 45);
  return {
    sixtyDays: addDays(date, 60),
    endOfMonthAfter45Days,
    fortyFiveDaysAfterEndOfMonth,
    agreedEndOfMonth: endOfMonthAfter45Days > fortyFiveDaysAfterEndOfMonth ? endOfMonthAfter45Days : fortyFiveDaysAfterEndOfMonth,
  };
}

/** What every refusal and warning about a long payment term starts with (the editor recognises it to ask for confirmation). */
export const LONG_PAYMENT_TERM = 'Délai de paiement supérieur à 60 jours (C. com. L441-10)';

/**
 * The warning for a business customer's due date past 60 days after the invoice date, in French; null when the term
 * is within the cap, incomplete, or the customer is an individual.
 */
export function longPaymentTermWarning(params: {
  date: string | null | undefined;
  maturity: string | null | undefined;
  customerType: 'company' | 'individual' | null | undefined;
}): string | null {
  const { date, maturity, customerType } = params;
  if (customerType !== 'company' || !date || !maturity || Number.isNaN(time(date)) || Number.isNaN(time(maturity))) return null;
  const limits = paymentTermLimits(date);
  if (maturity <= limits.sixtyDays) return null;
  const due = formatDateShort(maturity);
  const sixty = formatDateShort(limits.sixtyDays);
  const agreed = formatDateShort(limits.agreedEndOfMonth);
  if (maturity <= limits.agreedEndOfMonth)
    return `${LONG_PAYMENT_TERM} : échéance au ${due}, après le ${sixty} ; admis seulement si « 45 jours fin de mois » (au plus le ${agreed}) est expressément convenu au contrat`;
  return `${LONG_PAYMENT_TERM} : échéance au ${due}, au-delà des plafonds légaux entre entreprises (60 jours : ${sixty} ; 45 jours fin de mois : ${agreed})`;
}

/** A business customer's default payment term over 60 days, for the customer form. */
export function longDefaultTermWarning(days: number, customerType: 'company' | 'individual'): string | null {
  if (customerType !== 'company' || !Number.isFinite(days) || days <= 60) return null;
  return `${LONG_PAYMENT_TERM} : entre entreprises, 60 jours au plus, ou 45 jours fin de mois s’ils sont convenus au contrat ; chaque facture à ce délai demandera confirmation`;
}
