import { add, sub, toNumber, ZERO, type Money } from './money';

/** What the statistics share between the server and the screens (issue 17). */

interface RateLine {
  rate: number;
  base: number;
  amount: number;
}

/** The CA3 line (formulaire 3310-CA3, cadre B) of each rate of collected VAT; any other rate goes to « Autres taux ». */
const CA3_COLLECTED: Record<number, { line: string; label: string }> = {
  20: { line: '08', label: 'Taux normal 20 %' },
  10: { line: '9B', label: 'Taux réduit 10 %' },
  5.5: { line: '09', label: 'Taux réduit 5,5 %' },
  2.1: { line: '11', label: 'Taux particulier 2,1 %' },
};

/**
 * The collected and deductible VAT laid out as the CA3 return's lines: 08, 9B, 09, 11 (base and tax), 16 total
 * brute, 20 deductible on other goods and services, 23 total deductible, then 28 net due or 25 credit.
 */
export function ca3Lines(collected: readonly RateLine[], deductible: readonly RateLine[]) {
  const lines: { line: string; label: string; base: number | null; amount: number }[] = [];
  const others = collected.filter((c) => !CA3_COLLECTED[c.rate]);
  for (const c of collected) {
    const known = CA3_COLLECTED[c.rate];
    if (known) lines.push({ ...known, base: c.base, amount: c.amount });
  }
  if (others.length > 0)
    lines.push({
      line: 'T',
      label: 'Autres taux',
      base: toNumber(
        others.reduce<Money>((s, o) => add(s, o.base), ZERO),
        2,
      ),
      amount: toNumber(
        others.reduce<Money>((s, o) => add(s, o.amount), ZERO),
        2,
      ),
    });
  const gross = collected.reduce<Money>((s, c) => add(s, c.amount), ZERO);
  const deducted = deductible.reduce<Money>((s, d) => add(s, d.amount), ZERO);
  const net = sub(gross, deducted);
  lines.push({ line: '16', label: 'Total de la TVA brute due', base: null, amount: toNumber(gross, 2) });
  lines.push({ line: '20', label: 'Autres biens et services (TVA déductible)', base: null, amount: toNumber(deducted, 2) });
  lines.push({ line: '23', label: 'Total TVA déductible', base: null, amount: toNumber(deducted, 2) });
  if (net.lt(0)) lines.push({ line: '25', label: 'Crédit de TVA', base: null, amount: toNumber(net.times(-1), 2) });
  else lines.push({ line: '28', label: 'TVA nette due', base: null, amount: toNumber(net, 2) });
  return lines;
}

/**
 * The franchise en base thresholds (CGI art. 293 B) in force for 2025 and 2026, in euros of receipts over a calendar
 * year: sales of goods (and lodging) and services. The 2025 plan of a single 25 000 € threshold was abandoned.
 */
export const FRANCHISE_THRESHOLDS = { goods: 85_000, services: 37_500 } as const;
