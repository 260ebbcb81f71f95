import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageCapacity, paginate, PX_PER_CM, type PaginationInput } from '../../src/shared/pagination';
import { defined } from '../../src/shared/defined';

const margins = { first: { top: 1, bottom: 1 }, following: { top: 1, bottom: 1 } };
const base = { header: 300, followingHeader: 60, footer: 80, tableHeader: 30, totals: 160, margins };

describe('worked examples', () => {
  it('computes the room on a page from the 1022 px limit', () => {
    // 1022 − 2 cm × 37,8 − 300 header − 80 footer − 30 table head = 536,4 on page 1; 1022 − 75,6 − 60 − 80 − 30 = 776,4 after
    expect(pageCapacity({ ...base, rows: [] }, 0)).toBeCloseTo(536.4, 5);
    expect(pageCapacity({ ...base, rows: [] }, 1)).toBeCloseTo(776.4, 5);
    expect(pageCapacity({ ...base, rows: [], showSubtotalPrevious: true }, 1)).toBeCloseTo(736.4, 5);
    expect(2 * PX_PER_CM).toBeCloseTo(75.6, 10);
  });

  it('puts 10 rows of 30 px and the totals on one page', () => {
    const pages = paginate({ ...base, rows: Array(10).fill(30) });
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], hasTotals: true, used: 460 });
  });

  it('a 120-line invoice of 24 px rows: 22 rows on page 1, then 32 a page, totals with the last rows', () => {
    // page 1: 536,4 − 40 (closing subtotal) → 20 rows of 24 = 480 (21 would be 504 > 496,4)
    const pages = paginate({ ...base, rows: Array(120).fill(24), showSubtotal: true, showSubtotalPrevious: true });
    const counts = pages.map((p) => p.rows.length);
    expect(counts[0]).toBe(20);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(120);
    expect(defined(pages.at(-1), 'pages.at(-1)').hasTotals).toBe(true);
    for (const p of pages) expect(p.used).toBeLessThanOrEqual(p.capacity);
  });

  it('never leaves the totals alone: the last row moves with them', () => {
    // page 1 fits exactly 17 rows of 30 (510 ≤ 536,4) but not 17 rows + 160 of totals
    const pages = paginate({ ...base, rows: Array(17).fill(30) });
    expect(pages.map((p) => p.rows.length)).toEqual([16, 1]);
    expect(pages[1]).toMatchObject({ hasTotals: true, rows: [16] });
  });

  it('gives a row taller than a page its own page and flags it', () => {
    const pages = paginate({ ...base, rows: [30, 2000, 30] });
    expect(pages.map((p) => p.rows)).toEqual([[0], [1], [2]]);
    expect(defined(pages[1], 'pages[1]').oversized).toEqual([1]);
    expect(pages.map((p) => p.overflow)).toEqual([false, true, false]);
  });

  it('an empty table still has a page with the totals', () => {
    expect(paginate({ ...base, rows: [] })).toMatchObject([{ rows: [], hasTotals: true, overflow: false }]);
    // The counterexample fast-check found: no row, totals taller than page 1's room. Nothing to move: flagged.
    const crowded = paginate({
      ...base,
      rows: [],
      header: 362,
      footer: 146,
      tableHeader: 3,
      totals: 285,
      margins: { first: { top: 3, bottom: 3 }, following: { top: 0, bottom: 0 } },
    });
    expect(crowded).toMatchObject([{ rows: [], hasTotals: true, overflow: true }]);
  });
});

describe('properties', () => {
  const input = fc.record({
    rows: fc.array(fc.integer({ min: 10, max: 1200 }), { maxLength: 300 }),
    header: fc.integer({ min: 0, max: 400 }),
    followingHeader: fc.integer({ min: 0, max: 200 }),
    footer: fc.integer({ min: 0, max: 150 }),
    tableHeader: fc.integer({ min: 0, max: 40 }),
    totals: fc.integer({ min: 40, max: 300 }),
    margins: fc.record({
      first: fc.record({ top: fc.integer({ min: 0, max: 3 }), bottom: fc.integer({ min: 0, max: 3 }) }),
      following: fc.record({ top: fc.integer({ min: 0, max: 3 }), bottom: fc.integer({ min: 0, max: 3 }) }),
    }),
    showSubtotal: fc.boolean(),
    showSubtotalPrevious: fc.boolean(),
  });

  it('never loses, duplicates or reorders a row; totals end the last page; only flagged pages overflow', () => {
    fc.assert(
      fc.property(input, (i: PaginationInput) => {
        const pages = paginate(i);
        expect(pages.flatMap((p) => p.rows)).toEqual(i.rows.map((_, k) => k));
        expect(pages.filter((p) => p.hasTotals)).toHaveLength(1);
        expect(defined(pages.at(-1), 'pages.at(-1)').hasTotals).toBe(true);
        if (i.rows.length > 0) expect(defined(pages.at(-1), 'pages.at(-1)').rows.length).toBeGreaterThan(0);
        pages.forEach((p) => {
          if (!p.overflow) expect(p.used).toBeLessThanOrEqual(p.capacity + 1e-9);
          // Overflow only where it cannot be avoided: a flagged row, or totals with no row at all.
          else expect(p.oversized.length > 0 || (i.rows.length === 0 && p.hasTotals)).toBe(true);
          expect(p.rows.length).toBeGreaterThan(p === pages.at(-1) ? -1 : 0);
        });
      }),
    );
  });
});
