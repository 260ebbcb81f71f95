import { money, type MoneyInput } from './money';

/**
 * Exact fixed-point arithmetic on native BigInt, for the hot loops of the totals: an amount is an integer count
 * of 10^-scale units. Inputs carry at most 4 decimals (the document schema says so), so every product, sum and
 * rounding below is exact; divisions round half away from zero on the exact rational, never on a truncation.
 */
const POW10: bigint[] = Array.from({ length: 24 }, (_, i) => 10n ** BigInt(i));
export const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n);

export const INPUT_SCALE = 4;

/** n / d rounded half away from zero (d > 0). */
export function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** A typed value as units of 10^-4, rounded half away from zero past the 4th decimal. */
export function toUnits4(value: MoneyInput | null | undefined): bigint {
  if (value === null || value === undefined || value === '') return 0n;
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15) {
    if (Number.isInteger(value)) return BigInt(value) * POW10[INPUT_SCALE]!;
    // Shortest round-trip decimal of the double, then exact decimal rounding: 1.005 stays 1.005.
    const text = String(value);
    return fromDecimalString(/e/i.test(text) ? money(value).toFixed() : text); // 1e-7 prints in exponent form
  }
  return fromDecimalString(money(value).toFixed());
}

function fromDecimalString(text: string): bigint {
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const kept = BigInt(int + frac.slice(0, INPUT_SCALE).padEnd(INPUT_SCALE, '0'));
  const rest = frac.slice(INPUT_SCALE);
  const roundedUp = rest !== '' && rest[0]! >= '5' ? kept + 1n : kept;
  return negative ? -roundedUp : roundedUp;
}

/** Changes the scale of a value, rounding half away from zero when it loses digits. */
export function rescale(value: bigint, from: number, to: number): bigint {
  if (to >= from) return value * pow10(to - from);
  return roundDiv(value, pow10(from - to));
}

/** Units at `scale` to a JSON number: exact integer over a power of ten, the same double as parsing the decimal. */
export function unitsToNumber(value: bigint, scale: number): number {
  return Number(value) / Number(pow10(scale));
}

export const absUnits = (v: bigint): bigint => (v < 0n ? -v : v);

/**
 * Splits `total` across `weights` so the shares add up to it exactly: each share is its exact part rounded toward
 * zero, then the leftover units go to the largest remainders (ties: first in order). Shares take total's sign.
 */
export function allocateUnits(total: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const ws = weights.map(absUnits);
  const weightSum = ws.reduce((a, b) => a + b, 0n);
  const magnitude = absUnits(total);
  const shares = weightSum === 0n ? ws.map((_, i) => (i === 0 ? magnitude : 0n)) : ws.map((w) => (magnitude * w) / weightSum);
  if (weightSum !== 0n) {
    let leftover = magnitude - shares.reduce((a, b) => a + b, 0n);
    if (leftover > 0n) {
      const order = ws
        .map((w, i) => ({ i, remainder: (magnitude * w) % weightSum }))
        .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i));
      for (let k = 0; leftover > 0n; k = (k + 1) % order.length, leftover -= 1n) shares[order[k]!.i]! += 1n;
    }
  }
  return total < 0n ? shares.map((x) => -x) : shares;
}
