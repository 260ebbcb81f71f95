import { add, fromStoredUnits, percentOf, toStoredUnits } from '../../shared/money';

/**
 * When a credit is an invoice's balance less a fee someone kept on the way (a card acquirer's payout, a foreign bank's
 * charges on a transfer). The rule, one for every processor and bank:
 *
 *   the fee is plausible when 0 < balance − credit ≤ 3 % of the balance + 0,50
 *
 * wide enough for the public schedules of European card payments (Stripe 1,5 % + 0,25 €, SumUp 1,75 %, Zettle
 * 1,75 %, PayPal 2,9 % + 0,35 €) and for the usual flat charges of a SEPA or SWIFT transfer on a small amount, narrow
 * enough that a partial payment of a larger sum is never taken for one. Only looked at when the label names a known
 * card processor, or the customer (then not sure: a partial payment looks alike).
 */
export const FEE_RATE_PERCENT = '3';
export const FEE_FIXED = '0.50';

/** Card acquirers and payment services whose payouts arrive net of their fee, as their names appear in labels. */
export const PROCESSORS = [
  'STRIPE',
  'SUMUP',
  'PAYPAL',
  'ZETTLE',
  'IZETTLE',
  'PAYPLUG',
  'MOLLIE',
  'ADYEN',
  'LYDIA',
  'PAYGREEN',
  'SYSTEMPAY',
];

/** The processor a label names, if any (« VIR STRIPE PAYMENTS EUROPE » → STRIPE). */
export function processorIn(text: string): string | undefined {
  const words = new Set(
    text
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .filter(Boolean),
  );
  return PROCESSORS.find((p) => words.has(p));
}

/** The largest fee the rule allows on a balance, in stored units. */
export const maxFeeOn = (balance: number): number => toStoredUnits(add(percentOf(fromStoredUnits(balance), FEE_RATE_PERCENT), FEE_FIXED));

/** Whether `credit` is `balance` less a plausible fee (both stored units, positive). */
export const isNetOfFee = (credit: number, balance: number): boolean => credit < balance && balance - credit <= maxFeeOn(balance);
