import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals, formatTaxRate, type TotalsInput } from '../../src/shared/totals';
import { money, sum } from '../../src/shared/money';
import { defined } from '../../src/shared/defined';

const TVA20 = { title: 'TVA', rate: 20 };
const TVA55 = { title: 'TVA', rate: 5.5 };

describe('worked examples (checked by hand)', () => {
  it('three lines, two rates, a line discount of each kind, a document discount and shipping', () => {
    // A: 3 × 120,00 − 10 %        = 360,00 − 36,00 = 324,00   TVA 20 %
    // B: 2,5 h × 80,00            = 200,00                     TVA 20 %
    // C: 1 × 45,50 − 5,50 €       = 40,00                      TVA 5,5 %
    // subtotal 564,00; document discount 5 % = 28,20, spread 524 : 40 → 26,20 (20 %) and 2,00 (5,5 %)
    // shipping 15,00, undiscounted (CGI art. 267), apportioned to the bases 497,80 : 38,00 → 13,936… : 1,063…, in
    // cents 13,93 + 1,06 and the last cent to the larger remainder: 13,94 (20 %) and 1,06 (5,5 %)
    // TVA 20 % on 497,80 + 13,94 = 511,74 → 102,348 → 102,35; TVA 5,5 % on 38,00 + 1,06 = 39,06 → 2,15; tax 104,50
    // total = 564,00 − 28,20 + 104,50 + 15,00 shipping = 655,30; due after a 100 € deposit and 200 € paid = 355,30
    const totals = computeTotals({
      items: [
        { quantity: 3, unit_price: 120, discount_type: 'percent', discount_value: 10, taxes: [TVA20] },
        { quantity: 2.5, unit_price: 80, taxes: [TVA20] },
        { quantity: 1, unit_price: 45.5, discount_type: 'amount', discount_value: 5.5, taxes: [TVA55] },
      ],
      discount_type: 'percent',
      discount_value: 5,
      shipping: 15,
      deposits: [100],
      paid: 200,
    });
    expect(totals.lines).toEqual([
      { price: 120, net_price: 108, subtotal: 360, discount: 36, gross_total: 324, tax: 64.8, total: 388.8 },
      { price: 80, net_price: 80, subtotal: 200, discount: 0, gross_total: 200, tax: 40, total: 240 },
      { price: 45.5, net_price: 40, subtotal: 45.5, discount: 5.5, gross_total: 40, tax: 2.2, total: 42.2 },
    ]);
    expect(totals.subtotal).toBe(564);
    expect(totals.discount).toBe(28.2);
    expect(totals.taxes).toEqual([
      { title: 'TVA', rate: 5.5, taxable_amount: 39.06, amount: 2.15, shipping: 1.06 },
      { title: 'TVA', rate: 20, taxable_amount: 511.74, amount: 102.35, shipping: 13.94 },
    ]);
    expect(totals).toMatchObject({ tax: 104.5, shipping: 15, total: 655.3, deposits: 100, paid: 200, amount_due: 355.3 });
    expect(totals.shipping_tax).toEqual(TVA20);
  });

  it('computes VAT per rate on the sum of bases, not line by line (EN 16931)', () => {
    // 7 lines of 0,02 at 20 %: line by line 0,004 → 0,00 each, nothing; on the sum 0,14 × 20 % = 0,028 → 0,03
    const totals = computeTotals({ items: Array.from({ length: 7 }, () => ({ quantity: 1, unit_price: 0.02, taxes: [TVA20] })) });
    expect(totals.tax).toBe(0.03);
    expect(totals.total).toBe(0.17);
  });

  it('TTC mode: 500,00 € typed is 500,00 € due (HT 416,67 + TVA 83,33)', () => {
    const totals = computeTotals({ price_mode: 'ttc', items: [{ quantity: 1, unit_price: 500, taxes: [TVA20] }] });
    expect(totals).toMatchObject({ subtotal: 416.67, tax: 83.33, total: 500, amount_due: 500 });
    expect(totals.taxes).toEqual([{ title: 'TVA', rate: 20, taxable_amount: 416.67, amount: 83.33 }]);
    expect(totals.lines[0]).toMatchObject({ gross_total: 416.67, tax: 83.33, total: 500 });
  });

  it('TTC mode: three lines of 33,33 € TTC add up to 99,99 € with lines that add up to the document', () => {
    // bucket 99,99 TTC → HT 83,33 (99,99 / 1,2 = 83,325 → half away from zero), VAT 16,66
    const totals = computeTotals({
      price_mode: 'ttc',
      items: Array.from({ length: 3 }, () => ({ quantity: 1, unit_price: 33.33, taxes: [TVA20] })),
    });
    expect(totals).toMatchObject({ subtotal: 83.33, tax: 16.66, total: 99.99 });
    expect(totals.lines.map((l) => l.gross_total)).toEqual([27.78, 27.78, 27.77]);
    expect(totals.lines.map((l) => l.total)).toEqual([33.33, 33.33, 33.33]);
  });

  it('TTC mode with a document discount of 10 % on 1 200,00 € TTC: 1 080,00 € due', () => {
    // 1 200 − 120 = 1 080 TTC → HT 900,00, VAT 180,00; HT before discount 1 000,00 → HT discount 100,00
    const totals = computeTotals({
      price_mode: 'ttc',
      discount_type: 'percent',
      discount_value: 10,
      items: [{ quantity: 2, unit_price: 600, taxes: [TVA20] }],
    });
    expect(totals).toMatchObject({ subtotal: 1000, discount: 100, tax: 180, total: 1080 });
  });

  it('several taxes on a line are grouped by title and sorted by rate ascending', () => {
    const totals = computeTotals({ items: [{ quantity: 1, unit_price: 100, taxes: [TVA20, { title: 'Écotaxe', rate: 1 }] }] });
    expect(totals.taxes.map((t) => [t.title, t.rate, t.amount])).toEqual([
      ['Écotaxe', 1, 1],
      ['TVA', 20, 20],
    ]);
    expect(totals.total).toBe(121);
    expect(defined(totals.lines[0], 'totals.lines[0]').tax).toBe(21);
  });

  it.each<[string, Partial<TotalsInput>, number]>([
    ['a discount amount above the subtotal is capped at it', { discount_type: 'amount', discount_value: 80 }, 0],
    ['a percent above 100 counts as 100', { discount_type: 'percent', discount_value: 150 }, 0],
    ['no discount without a type', { discount_type: null, discount_value: 10 }, 60],
    ['no discount without a value', { discount_type: 'percent', discount_value: null }, 60],
  ])('%s', (_label, patch, total) => {
    expect(computeTotals({ items: [{ quantity: 1, unit_price: 50, taxes: [TVA20] }], ...patch }).total).toBe(total);
  });

  it('applies a line discount only when price and quantity are present', () => {
    const totals = computeTotals({ items: [{ quantity: 2, unit_price: null, discount_type: 'amount', discount_value: 5 }] });
    expect(totals.lines[0]).toMatchObject({ subtotal: 0, discount: 0, gross_total: 0 });
  });

  it('rounds to the currency: JPY has no decimals', () => {
    // 3 × 333,5 = 1000,5 → 1001; TVA 10 % of 1001 = 100,1 → 100
    const totals = computeTotals({
      precision: 0,
      items: [{ quantity: 3, unit_price: 333.5, taxes: [{ title: 'Consumption tax', rate: 10 }] }],
    });
    expect(totals).toMatchObject({ subtotal: 1001, tax: 100, total: 1101 });
  });

  it('an empty document is all zeros', () => {
    expect(computeTotals({ items: [] })).toMatchObject({ subtotal: 0, discount: 0, taxes: [], tax: 0, total: 0, amount_due: 0 });
  });

  it('formats rates with two decimals and %', () => {
    expect(formatTaxRate(5.5)).toBe('5,50\u202f%');
    expect(formatTaxRate(20, '.')).toBe('20.00\u202f%');
  });
});

type ShippingCase = [
  label: string,
  input: TotalsInput,
  expected: { taxes: [number, number, number][]; tax: number; total: number; shipping_tax: { title: string; rate: number } | null },
];
const TVA10 = { title: 'TVA', rate: 10 };

describe('shipping is part of the taxable base (CGI art. 267)', () => {
  // Each case checked by hand; taxes as [rate, taxable amount, VAT].
  it.each<ShippingCase>([
    [
      // 100,00 + 10,00 at 20 % = 110,00 → 22,00; total 100 + 10 + 22 = 132,00
      'shipping follows the rate of the lines by default',
      { items: [{ quantity: 1, unit_price: 100, taxes: [TVA20] }], shipping: 10 },
      { taxes: [[20, 110, 22]], tax: 22, total: 132, shipping_tax: TVA20 },
    ],
    [
      // apportioned 300 : 100 → 15,00 at 5,5 % (315,00 → 17,325 → 17,33) and 5,00 at 20 % (105,00 → 21,00);
      // total 400 + 20 + 38,33 = 458,33; the main rate (largest base) is still named for the editor
      'shipping is apportioned to the bases of each rate, not taxed at the rate of the largest',
      {
        items: [
          { quantity: 1, unit_price: 100, taxes: [TVA20] },
          { quantity: 3, unit_price: 100, taxes: [TVA55] },
        ],
        shipping: 20,
      },
      {
        taxes: [
          [5.5, 315, 17.33],
          [20, 105, 21],
        ],
        tax: 38.33,
        total: 458.33,
        shipping_tax: TVA55,
      },
    ],
    [
      // equal bases, equal parts: 5,5 % on 105 → 5,775 → 5,78, 20 % on 105 → 21,00; total 200 + 10 + 26,78 = 236,78
      'equal bases share shipping equally',
      {
        items: [
          { quantity: 1, unit_price: 100, taxes: [TVA55] },
          { quantity: 1, unit_price: 100, taxes: [TVA20] },
        ],
        shipping: 10,
      },
      {
        taxes: [
          [5.5, 105, 5.78],
          [20, 105, 21],
        ],
        tax: 26.78,
        total: 236.78,
        shipping_tax: TVA20,
      },
    ],
    [
      // 1 000,00 untaxed : 10,00 at 20 % → 49,504… : 0,495…; in cents 49,50 : 0,50 (the larger remainder takes the
      // last cent); 20 % on 10,50 → 2,10; total 1 010 + 50 + 2,10 = 1 062,10
      'the part of untaxed lines carries no VAT',
      {
        items: [
          { quantity: 1, unit_price: 1000, taxes: [] },
          { quantity: 1, unit_price: 10, taxes: [TVA20] },
        ],
        shipping: 50,
      },
      { taxes: [[20, 10.5, 2.1]], tax: 2.1, total: 1062.1, shipping_tax: null },
    ],
    [
      // books 300 at 5,5 % and a lamp 200 at 20 %, shipping 20: 12,00 follows the books (312,00 → 17,16) and 8,00 the
      // lamp (208,00 → 41,60): shipping's VAT is 0,66 + 1,60 = 2,26, not 1,10 at the books' rate alone; total 578,76
      'books and a lamp: the VAT of shipping follows both rates',
      {
        items: [
          { quantity: 1, unit_price: 300, taxes: [TVA55] },
          { quantity: 1, unit_price: 200, taxes: [TVA20] },
        ],
        shipping: 20,
      },
      {
        taxes: [
          [5.5, 312, 17.16],
          [20, 208, 41.6],
        ],
        tax: 58.76,
        total: 578.76,
        shipping_tax: TVA55,
      },
    ],
    [
      // a rate chosen for shipping: 10 % on 10 → 1,00 in its own group; total 100 + 10 + 21 = 131
      'a chosen rate makes its own group',
      { items: [{ quantity: 1, unit_price: 100, taxes: [TVA20] }], shipping: 10, shipping_tax: TVA10 },
      {
        taxes: [
          [10, 10, 1],
          [20, 100, 20],
        ],
        tax: 21,
        total: 131,
        shipping_tax: TVA10,
      },
    ],
    [
      // none chosen (franchise, or the user's choice): 100 + 10 + 20 = 130
      'null: shipping without VAT',
      { items: [{ quantity: 1, unit_price: 100, taxes: [TVA20] }], shipping: 10, shipping_tax: null },
      { taxes: [[20, 100, 20]], tax: 20, total: 130, shipping_tax: null },
    ],
    [
      // the 10 % discount applies to the lines only: (100 − 10) + 10 = 100 at 20 % → 20; total 100 − 10 + 10 + 20 = 120
      'the document discount does not reduce shipping',
      { items: [{ quantity: 1, unit_price: 100, taxes: [TVA20] }], discount_type: 'percent', discount_value: 10, shipping: 10 },
      { taxes: [[20, 100, 20]], tax: 20, total: 120, shipping_tax: TVA20 },
    ],
    [
      // VAT on the sum of bases: 0,02 + 0,02 = 0,04 × 20 % = 0,008 → 0,01 (each alone would round to 0,00)
      'VAT on the sum of the lines and shipping, not each apart',
      { items: [{ quantity: 1, unit_price: 0.02, taxes: [TVA20] }], shipping: 0.02 },
      { taxes: [[20, 0.04, 0.01]], tax: 0.01, total: 0.05, shipping_tax: TVA20 },
    ],
    [
      // TTC: the line's 120,00 TTC is HT 100 + VAT 20; shipping 10,00 HT adds 2,00; total 100 + 10 + 22 = 132
      'TTC mode: shipping is typed excluding tax and its VAT is added',
      { price_mode: 'ttc', items: [{ quantity: 1, unit_price: 120, taxes: [TVA20] }], shipping: 10 },
      { taxes: [[20, 110, 22]], tax: 22, total: 132, shipping_tax: TVA20 },
    ],
    [
      // TTC, rounding: 9,99 × 5,5 % = 0,54945 → 0,55; line 105,50 TTC → 100 + 5,50; total 100 + 9,99 + 6,05 = 116,04
      'TTC mode: the VAT of shipping is rounded on its own amount',
      { price_mode: 'ttc', items: [{ quantity: 1, unit_price: 105.5, taxes: [TVA55] }], shipping: 9.99 },
      { taxes: [[5.5, 109.99, 6.05]], tax: 6.05, total: 116.04, shipping_tax: TVA55 },
    ],
    [
      'no shipping: no group is made for it, the rate is still resolved',
      { items: [{ quantity: 1, unit_price: 100, taxes: [TVA20] }], shipping: 0, shipping_tax: TVA10 },
      { taxes: [[20, 100, 20]], tax: 20, total: 120, shipping_tax: TVA10 },
    ],
    ['shipping alone, without lines, has no main rate', { items: [], shipping: 10 }, { taxes: [], tax: 0, total: 10, shipping_tax: null }],
  ])('%s', (_label, input, expected) => {
    const t = computeTotals(input);
    expect(t.taxes.map((g) => [g.rate, g.taxable_amount, g.amount])).toEqual(expected.taxes);
    expect(t).toMatchObject({ tax: expected.tax, total: expected.total, shipping_tax: expected.shipping_tax });
    expect(money(t.subtotal).minus(t.discount).plus(t.shipping).plus(t.tax).eq(t.total)).toBe(true);
  });
});

const rate = fc.constantFrom(0, 2.1, 5.5, 10, 20);
const cents = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 100);
const line = fc.record({
  quantity: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
  unit_price: cents(1_000_000),
  discount_type: fc.constantFrom('percent' as const, 'amount' as const, null),
  discount_value: cents(20_000),
  taxes: fc.array(rate, { maxLength: 2 }).map((rates) => rates.map((r, i) => ({ title: i === 0 ? 'TVA' : 'Taxe locale', rate: r }))),
});
const doc = fc.record({
  items: fc.array(line, { maxLength: 25 }),
  discount_type: fc.constantFrom('percent' as const, 'amount' as const, null),
  discount_value: cents(50_000),
  shipping: cents(10_000),
  price_mode: fc.constantFrom('ht' as const, 'ttc' as const),
});

describe('properties', () => {
  it('total = subtotal − discount + Σ tax groups + shipping, to the cent', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const t = computeTotals(d);
        expect(sum(t.taxes.map((g) => g.amount)).eq(t.tax)).toBe(true);
        expect(money(t.subtotal).minus(t.discount).plus(t.tax).plus(t.shipping).eq(t.total)).toBe(true);
        expect(money(t.total).minus(t.deposits).minus(t.paid).eq(t.amount_due)).toBe(true);
      }),
    );
  });

  it('shipping apportioned to the bases: its parts add up to it exactly, each within a cent of its exact share', () => {
    // One tax or none per line, positive amounts, HT: each rate's part is shipping × its base ÷ all the bases.
    const simpleLine = fc.record({
      quantity: fc.integer({ min: 1, max: 1_000 }),
      unit_price: cents(100_000),
      taxes: rate.map((r) => (r === 0 ? [] : [{ title: 'TVA', rate: r }])),
    });
    fc.assert(
      fc.property(fc.array(simpleLine, { minLength: 1, maxLength: 12 }), cents(100_000), (items, shipping) => {
        const t = computeTotals({ items, shipping });
        const lines = computeTotals({ items }).lines;
        const bases = new Map<number, ReturnType<typeof money>>();
        items.forEach((item, i) => {
          const key = item.taxes[0]?.rate ?? 0;
          bases.set(key, (bases.get(key) ?? money(0)).plus(defined(lines[i], 'lines[i]').gross_total));
        });
        const all = sum([...bases.values()]);
        const parts = t.taxes.map((g) => money(g.shipping ?? 0));
        const untaxed = money(shipping).minus(sum(parts));
        for (const g of t.taxes) {
          const exact = all.eq(0)
            ? money(0)
            : money(shipping)
                .times(defined(bases.get(g.rate), 'base'))
                .div(all);
          if (!all.eq(0))
            expect(
              money(g.shipping ?? 0)
                .minus(exact)
                .abs()
                .lt(0.01),
            ).toBe(true);
          // VAT on the base with its part of shipping, as one sum (CGI art. 267).
          expect(money(g.amount).eq(money(g.taxable_amount).times(g.rate).div(100).round(2, 1))).toBe(true);
        }
        expect(untaxed.gte(0)).toBe(true);
        if (!bases.has(0) && !all.eq(0)) expect(untaxed.eq(0)).toBe(true);
      }),
    );
  });

  it('the lines add up to the document subtotal', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const t = computeTotals(d);
        expect(sum(t.lines.map((l) => l.gross_total)).eq(t.subtotal)).toBe(true);
      }),
    );
  });

  it('grouping taxes never loses a base: each group’s taxable amount is the discounted sum of its lines', () => {
    fc.assert(
      fc.property(doc, (d) => {
        // Shipping aside (its own property above): only the lines' bases.
        const t = computeTotals({ ...d, price_mode: 'ht', shipping_tax: null });
        const afterDiscount = money(t.subtotal).minus(t.discount);
        for (const group of t.taxes) {
          const lines = d.items
            .map((item, i) => ({ item, net: defined(t.lines[i], 't.lines[i]').gross_total }))
            .filter(({ item }) => item.taxes.some((x) => x.title === group.title && x.rate === group.rate));
          const base = sum(lines.map((l) => l.net));
          // The discount is spread by share of the subtotal: each base shrinks by at most its share plus a cent.
          const expected = t.subtotal === 0 ? base : base.times(afterDiscount).div(t.subtotal);
          expect(
            money(group.taxable_amount)
              .minus(expected)
              .abs()
              .lte(0.01 * d.items.length + 0.01),
          ).toBe(true);
        }
      }),
    );
  });

  it('with one tax per line, the groups’ taxable amounts add up to the net base plus the taxed shipping', () => {
    const oneTax = fc.record({
      quantity: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
      unit_price: cents(1_000_000),
      discount_type: fc.constantFrom('percent' as const, 'amount' as const, null),
      discount_value: cents(20_000),
      taxes: rate.map((r) => [{ title: 'TVA', rate: r }]),
    });
    const shippingTax = fc.option(
      rate.map((r) => ({ title: 'TVA', rate: r })),
      { nil: undefined },
    );
    fc.assert(
      fc.property(doc, fc.array(oneTax, { maxLength: 25 }), shippingTax, (d, items, chosen) => {
        const t = computeTotals({ ...d, items, shipping_tax: chosen });
        const taxedShipping = t.shipping_tax ? t.shipping : 0;
        const taxable = sum(t.taxes.map((g) => g.taxable_amount));
        expect(taxable.eq(money(t.subtotal).minus(t.discount).plus(taxedShipping))).toBe(true);
        expect(money(t.subtotal).minus(t.discount).plus(t.shipping).plus(t.tax).eq(t.total)).toBe(true);
      }),
    );
  });

  it('in HT mode each group’s VAT is its rate on its taxable amount, shipping included', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const t = computeTotals({ ...d, price_mode: 'ht' });
        for (const g of t.taxes) expect(money(g.taxable_amount).times(g.rate).div(100).round(2, 1).eq(g.amount)).toBe(true);
      }),
    );
  });

  it('a discount never makes a total negative', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const t = computeTotals(d);
        expect(t.total).toBeGreaterThanOrEqual(0);
        expect(t.discount).toBeLessThanOrEqual(t.subtotal);
        t.lines.forEach((l) => {
          expect(l.gross_total).toBeGreaterThanOrEqual(0);
        });
      }),
    );
  });

  it('in TTC mode the typed amounts are exactly what is due', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const t = computeTotals({ ...d, price_mode: 'ttc', discount_type: null });
        // Shipping is excluding tax: what is due is the typed lines, shipping and the VAT on shipping.
        // Apportioned to the bases: each rate's part of shipping carries its own VAT.
        const shippingVat = sum(
          t.taxes.map((g) =>
            money(g.shipping ?? 0)
              .times(g.rate)
              .div(100)
              .round(2, 1),
          ),
        );
        expect(
          sum(t.lines.map((l) => l.total))
            .plus(t.shipping)
            .plus(shippingVat)
            .eq(t.total),
        ).toBe(true);
      }),
    );
  });

  it('handles a 1 000-line document', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      quantity: (i % 7) + 1,
      unit_price: 9.99 + (i % 13),
      taxes: [i % 3 ? TVA20 : TVA55],
    }));
    const t = computeTotals({ items, discount_type: 'percent', discount_value: 3 });
    expect(t.lines).toHaveLength(1000);
    expect(money(t.subtotal).minus(t.discount).plus(t.tax).eq(t.total)).toBe(true);
  });
});
