import { computeTotals, type TotalsInput } from '../../src/shared/totals';
import { defined } from '../../src/shared/defined';

function invoice(lines: number, mode: 'ht' | 'ttc'): TotalsInput {
  const rates = [20, 10, 5.5, 2.1];
  return {
    price_mode: mode,
    discount_type: 'percent',
    discount_value: 3,
    shipping: 25,
    items: Array.from({ length: lines }, (_, i) => ({
      quantity: (i % 9) + 1,
      unit_price: 12.34 + (i % 17) * 3.21,
      discount_type: i % 4 === 0 ? ('percent' as const) : ('amount' as const),
      discount_value: i % 4 === 0 ? 5 : 1,
      taxes: [{ title: 'TVA', rate: defined(rates[i % rates.length], 'rates[i % rates.length]') }],
    })),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return defined(sorted[Math.floor(sorted.length / 2)], 'sorted[Math.floor(sorted.length / 2)]');
}

/** Totals of a document computed by the shared core (server on every save, client on every keystroke). */
export async function benchTotals(): Promise<void> {
  console.log('\n## Totals (shared core): one document, median of 200 runs after 20 warm-up runs');
  console.log('| lines | mode | median ms | p95 ms |');
  console.log('|---:|---|---:|---:|');
  for (const lines of [10, 100, 1000]) {
    for (const mode of ['ht', 'ttc'] as const) {
      const doc = invoice(lines, mode);
      for (let i = 0; i < 20; i++) computeTotals(doc);
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const start = performance.now();
        computeTotals(doc);
        times.push(performance.now() - start);
      }
      const p95 = defined([...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]);
      console.log(`| ${lines} | ${mode.toUpperCase()} | ${median(times).toFixed(3)} | ${p95.toFixed(3)} |`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTotals();
