import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sum } from '../../src/shared/money';
import { defaultAccountingSettings } from '../../src/shared/schemas/accounting';
import { saleItems, type SaleDocument } from '../../src/shared/vat-return/sales';
import { holdVat, type FecLine } from '../../src/shared/fec/entries';
import { expenseVatTransfer, salesOnReceipts } from '../../src/shared/fec/vat-on-receipts';

const accounts = defaultAccountingSettings();

const base = {
  type: 'invoice',
  kind: 'standard',
  party: 'Client',
  zone: 'france',
  exchangeRate: '1',
  precision: 2,
  deposits: 0,
  correctsId: null,
  deductedById: null,
  payments: [],
} as const;

/** Goods 1 000 + service 100, both at 20 %: 1 100 HT, 220 VAT, 1 320 TTC. */
const mixed = (over: Partial<SaleDocument> = {}): SaleDocument => ({
  ...base,
  id: 1,
  number: 'F-1',
  date: '2026-03-10',
  total: 1320,
  tax: 220,
  groups: [{ rate: 20, base: 1100, amount: 220 }],
  lines: [
    { nature: 'goods', rates: [20], net: 1000 },
    { nature: 'services', rates: [20], net: 100 },
  ],
  ...over,
});

const YEAR = { from: '2026-01-01', to: '2026-12-31' };
/** Each transfer as [date, units moved from 44574 to 44571]. */
const transfers = (result: ReturnType<typeof salesOnReceipts>) =>
  result.transfers.map((e) => [
    e.date,
    (e.lines.find((l) => l.account === '44574')?.debit ?? 0n) - (e.lines.find((l) => l.account === '44574')?.credit ?? 0n),
  ]);

describe('VAT on receipts in the books (44574)', () => {
  it('holds the service’s VAT at issue and moves it as paid; a reversed payment moves it back, on its own day', () => {
    const invoice = mixed({
      payments: [
        { date: '2026-04-02', amount: 660 },
        { date: '2026-05-03', amount: -660 },
        { date: '2026-06-04', amount: 1320 },
      ],
    });
    const result = salesOnReceipts([invoice], { ...YEAR, basis: 'receipts' }, accounts, 2);
    expect(result.held.get(1)).toBe(2000n);
    expect(transfers(result)).toEqual([
      ['2026-04-02', 1000n],
      ['2026-05-03', -1000n],
      ['2026-06-04', 2000n],
    ]);
    // Backwards, the transfer swaps its sides: never a negative amount.
    const back = result.transfers[1]?.lines.map((l) => [l.account, l.debit, l.credit]);
    expect(back).toEqual([
      ['44574', 0n, 1000n],
      ['44571', 1000n, 0n],
    ]);
  });

  it('under the débits option nothing waits: services are due at issue', () => {
    const result = salesOnReceipts(
      [mixed({ payments: [{ date: '2026-04-02', amount: 1320 }] })],
      { ...YEAR, basis: 'debits' },
      accounts,
      2,
    );
    expect(result.held.size).toBe(0);
    expect(result.transfers).toEqual([]);
  });

  it('with 44571 given as the waiting account too, nothing is held nor moved (one label per account)', () => {
    const invoice = mixed({ payments: [{ date: '2026-04-02', amount: 660 }] });
    const result = salesOnReceipts([invoice], { ...YEAR, basis: 'receipts' }, { ...accounts, vat_on_receipts: '44571' }, 2);
    expect(result).toEqual({ held: new Map(), transfers: [] });
  });

  it('a deposit on goods waits until received, even under the débits option', () => {
    const deposit = mixed({
      id: 2,
      number: 'FA-1',
      kind: 'deposit',
      total: 360,
      tax: 60,
      groups: [{ rate: 20, base: 300, amount: 60 }],
      lines: [{ nature: 'goods', rates: [20], net: 300 }],
      payments: [{ date: '2026-03-12', amount: 360 }],
    });
    const result = salesOnReceipts([deposit], { ...YEAR, basis: 'debits' }, accounts, 2);
    expect(result.held.get(2)).toBe(6000n);
    expect(transfers(result)).toEqual([['2026-03-12', 6000n]]);
  });

  it('a transfer outside the fiscal year is left to that year’s FEC', () => {
    const invoice = mixed({ payments: [{ date: '2027-01-05', amount: 1320 }] });
    expect(salesOnReceipts([invoice], { ...YEAR, basis: 'receipts' }, accounts, 2).transfers).toEqual([]);
    expect(transfers(salesOnReceipts([invoice], { from: '2027-01-01', to: '2027-12-31', basis: 'receipts' }, accounts, 2))).toEqual([
      ['2027-01-05', 2000n],
    ]);
  });

  it('any payments: each month’s transfers are the return’s VAT on receipts of that month, to the cent, and the rest waits', () => {
    const day = fc.integer({ min: 1, max: 28 }).map((d) => String(d).padStart(2, '0'));
    const month = fc.integer({ min: 3, max: 12 }).map((m) => String(m).padStart(2, '0'));
    fc.assert(
      fc.property(
        fc.array(fc.record({ month, day, cents: fc.integer({ min: -50_000, max: 80_000 }) }), { maxLength: 6 }),
        fc.integer({ min: 1, max: 99_999 }),
        (payments, serviceCents) => {
          const service = serviceCents / 100;
          const vat = Math.round(service * 20) / 100;
          const invoice = mixed({
            total: Math.round((1200 + service + vat) * 100) / 100,
            tax: Math.round((200 + vat) * 100) / 100,
            groups: [{ rate: 20, base: Math.round((1000 + service) * 100) / 100, amount: Math.round((200 + vat) * 100) / 100 }],
            lines: [
              { nature: 'goods', rates: [20], net: 1000 },
              { nature: 'services', rates: [20], net: service },
            ],
            payments: payments.map((p) => ({ date: `2026-${p.month}-${p.day}`, amount: p.cents / 100 })),
          });
          const books = salesOnReceipts([invoice], { ...YEAR, basis: 'receipts' }, accounts, 2);
          let moved = 0n;
          for (let m = 3; m <= 12; m++) {
            const mm = String(m).padStart(2, '0');
            const period = { from: `2026-${mm}-01`, to: `2026-${mm}-31`, basis: 'receipts' as const };
            const declared = sum(
              saleItems([invoice], period)
                .filter((i) => i.nature === 'services')
                .map((i) => i.tax),
            );
            const inMonth = transfers(books)
              .filter(([date]) => String(date).slice(5, 7) === mm)
              .reduce((a, [, units]) => a + BigInt(units as bigint), 0n);
            expect(inMonth).toBe(BigInt(declared.times(100).toFixed(0)));
            moved += inMonth;
          }
          // Never more than was held, never less than nothing.
          expect(moved >= 0n && moved <= (books.held.get(1) ?? 0n)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('holdVat: the part not yet due moves to 44574, the entry keeps its balance', () => {
  const vatLine = (credit: bigint, units: bigint | null = null): FecLine => ({
    account: '44571',
    accountLabel: 'TVA collectée',
    aux: null,
    label: 'Facture F-1',
    debit: 0n,
    credit,
    foreign: units === null ? null : { units, precision: 2, currency: 'USD' },
  });
  it('cuts a line in two, keeping no foreign amount on either', () => {
    const lines = holdVat([vatLine(22000n, 24000n)], 2000n, accounts, 'Facture F-1');
    expect(lines.map((l) => [l.account, l.credit, l.foreign])).toEqual([
      ['44571', 20000n, null],
      ['44574', 2000n, null],
    ]);
  });
  it('moves a whole line with its foreign amount', () => {
    const lines = holdVat([vatLine(18433n, 20000n)], 18433n, accounts, 'Facture F-1');
    expect(lines.map((l) => [l.account, l.credit, l.foreign?.units])).toEqual([['44574', 18433n, 20000n]]);
  });
});

describe('VAT deductible on payment (44564)', () => {
  it('moves a services expense’s VAT to 44566 the day it is paid', () => {
    const entry = expenseVatTransfer({ reference: 'H-1', supplier: 'Cabinet', paidAt: '2026-02-05', deductible: 4000n }, accounts);
    expect(entry.journal).toBe('OD');
    expect(entry.date).toBe('2026-02-05');
    expect(entry.lines.map((l) => [l.account, l.accountLabel, l.debit, l.credit])).toEqual([
      ['44566', 'TVA déductible sur autres biens et services', 4000n, 0n],
      ['44564', 'TVA déductible sur encaissements', 0n, 4000n],
    ]);
  });
});
