/**
 * Internal to the money engine: import these through `./money`, the one public module. This file imports nothing,
 * so money.ts can build on it without a cycle.
 *
 * Exact fixed-point arithmetic on native BigInt, for the hot loops of the totals: an amount is an integer count
 * of 10^-scale units. Inputs carry at most 4 decimals (the document schema says so), so every product, sum and
 * rounding below is exact; divisions round half away from zero on the exact rational, never on a truncation.
 */
const POW10: bigint[] = Array.from({ length: 24 }, (_, i) => 10n ** BigInt(i));
export const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n);

/** Decimals kept for a typed amount, quantity or rate, and the scale of every amount stored in the database. */
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

/** A plain decimal text ('-12.34567', no exponent) as units of 10^-scale, rounded half away from zero past it. */
export function decimalTextToUnits(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative || text.startsWith('+') ? text.slice(1) : text).split('.');
  const kept = BigInt((int || '0') + frac.slice(0, scale).padEnd(scale, '0'));
  const next = frac.charAt(scale); // '' past the end: nothing to round
  const rounded = next !== '' && next >= '5' ? kept + 1n : kept;
  return negative ? -rounded : rounded;
}

/** Units at `scale` as exact decimal text with exactly `scale` decimals: (12345n, 2) → '123.45'. */
export function unitsToDecimalText(value: bigint, scale: number): string {
  const digits = absUnits(value)
    .toString()
    .padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const text = scale > 0 ? `${int}.${digits.slice(digits.length - scale)}` : int;
  return value < 0n ? `-${text}` : text;
}

/** Changes the scale of a value, rounding half away from zero when it loses digits. */
export function rescale(value: bigint, from: number, to: number): bigint {
  if (to >= from) return value * pow10(to - from);
  return roundDiv(value, pow10(from - to));
}

/**
 * Units at `scale` to a JSON number at the edge: an exact integer over an exact power of ten gives the correctly
 * rounded double, the same one as parsing the decimal text.
 */
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
      for (let k = 0; leftover > 0n; k = (k + 1) % order.length, leftover -= 1n) {
        const at = order[k]?.i ?? 0;
        shares[at] = (shares[at] ?? 0n) + 1n;
      }
    }
  }
  return total < 0n ? shares.map((x) => -x) : shares;
}
