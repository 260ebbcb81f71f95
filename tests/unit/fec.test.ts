import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Conversion,
  entryBalance,
  type FecEntry,
  paymentEntry,
  type SaleDocument,
  saleEntry,
  sameCurrency,
} from '../../src/shared/fec/entries';
import { FEC_FIELDS, fecFileName, fecText } from '../../src/shared/fec/format';
import { convertAmount } from '../../src/shared/exchange';
import { INPUT_SCALE, rescale, toUnits4, unitsToDecimalText } from '../../src/shared/money';
import { defaultAccountingSettings } from '../../src/shared/schemas/accounting';
import { computeTotals } from '../../src/shared/totals';
import { encodeLatin9 } from '../../src/server/http/file-answer';

const accounts = defaultAccountingSettings();
const EUR = sameCurrency(2);
const customer = { number: 'CL-00001', name: 'Boulangerie Martin' };

function sale(overrides: Partial<SaleDocument>): SaleDocument {
  return {
    type: 'invoice',
    deposit: false,
    number: 'F2026-0001',
    date: '2026-03-10',
    validDate: '2026-03-10',
    recordedAt: '2026-03-10T09:00:00.000Z',
    customer,
    total: 0,
    shipping: 0,
    taxes: [],
    lines: [],
    deductions: [],
    ...overrides,
  };
}

/** The entry's lines as `account side amount` strings, amounts in cents: easy to read in a table. */
const summary = (entry: FecEntry) =>
  entry.lines.map((l) => `${l.account}${l.aux ? `/${l.aux.number}` : ''} ${l.debit > 0n ? 'D' : 'C'} ${l.debit > 0n ? l.debit : l.credit}`);

describe('sales entry (VT)', () => {
  it.each<[string, Partial<SaleDocument>, string[]]>([
    [
      'services at 20 %',
      { total: 120, taxes: [{ rate: 20, amount: 20 }], lines: [{ kind: 'service', net: 100 }] },
      ['411/CL-00001 D 12000', '706 C 10000', '44571 C 2000'],
    ],
    [
      'services and goods at two rates, shipping, VAT by rate (two taxes of one rate merged)',
      {
        total: 1742.5,
        shipping: 15,
        taxes: [
          { rate: 5.5, amount: 27.5 },
          { rate: 20, amount: 150 },
          { rate: 20, amount: 50 },
        ],
        lines: [
          { kind: 'service', net: 1000 },
          { kind: 'goods', net: 500 },
        ],
      },
      ['411/CL-00001 D 174250', '706 C 100000', '707 C 50000', '708 C 1500', '44571 C 2750', '44571 C 20000'],
    ],
    [
      'a document discount spread over natures by their net amounts, to the cent',
      // 10 % off 100 + 50 (VAT 20 % on 135): revenue 135 → 90 + 45.
      {
        total: 162,
        taxes: [{ rate: 20, amount: 27 }],
        lines: [
          { kind: 'service', net: 100 },
          { kind: 'goods', net: 50 },
        ],
      },
      ['411/CL-00001 D 16200', '706 C 9000', '707 C 4500', '44571 C 2700'],
    ],
    [
      'a remainder cent goes to the largest remainder, never lost',
      {
        total: 100,
        taxes: [],
        lines: [
          { kind: 'service', net: 1 },
          { kind: 'goods', net: 2 },
        ],
      },
      ['411/CL-00001 D 10000', '706 C 3333', '707 C 6667'],
    ],
    [
      'a credit note reverses the sides',
      { type: 'credit', number: 'AV2026-0001', total: 60, taxes: [{ rate: 20, amount: 10 }], lines: [{ kind: 'service', net: 50 }] },
      ['706 D 5000', '44571 D 1000', '411/CL-00001 C 6000'],
    ],
    [
      'a deposit invoice books deposits received, not revenue',
      { deposit: true, total: 360, taxes: [{ rate: 20, amount: 60 }], lines: [{ kind: 'service', net: 300 }] },
      ['411/CL-00001 D 36000', '4191 C 30000', '44571 C 6000'],
    ],
    [
      'a final invoice takes the deposit and its VAT back out (VAT counted once over the two invoices)',
      {
        total: 1200,
        taxes: [{ rate: 20, amount: 200 }],
        lines: [{ kind: 'service', net: 1000 }],
        deductions: [{ number: 'F2026-0001', total: 360, taxes: [{ rate: 20, amount: 60 }] }],
      },
      ['411/CL-00001 D 120000', '706 C 100000', '44571 C 20000', '4191 D 30000', '44571 D 6000', '411/CL-00001 C 36000'],
    ],
    ['a free invoice (zero total) has no line of zero', { total: 0, lines: [{ kind: 'service', net: 0 }] }, []],
    [
      'a negative line (a rebate line) moves to the debit side of its account',
      {
        total: 60,
        taxes: [{ rate: 20, amount: 10 }],
        lines: [
          { kind: 'service', net: 100 },
          { kind: 'goods', net: -50 },
        ],
      },
      ['411/CL-00001 D 6000', '707 D 5000', '706 C 10000', '44571 C 1000'],
    ],
  ])('%s', (_label, doc, expected) => {
    const entry = saleEntry(sale(doc), accounts, EUR);
    expect(summary(entry).sort()).toEqual([...expected].sort());
    expect(entryBalance(entry)).toBe(0n);
    expect(entry).toMatchObject({ journal: 'VT', pieceRef: doc.number ?? 'F2026-0001', date: '2026-03-10' });
  });

  it('labels say what the piece is and for whom; 411 lines carry the customer auxiliary account', () => {
    const entry = saleEntry(sale({ total: 120, taxes: [{ rate: 20, amount: 20 }], lines: [{ kind: 'service', net: 100 }] }), accounts, EUR);
    expect(entry.lines.map((l) => l.label)).toEqual(Array(3).fill('Facture F2026-0001 Boulangerie Martin'));
    expect(entry.lines.map((l) => l.accountLabel)).toEqual(['Clients', 'Prestations de services', 'TVA collectée']);
    expect(entry.lines.map((l) => l.aux)).toEqual([{ number: 'CL-00001', label: 'Boulangerie Martin' }, null, null]);
  });

  it('books to the accounts the organisation chose', () => {
    const custom = { ...accounts, customers: '4110', services: '706100', vat: '445712' };
    const entry = saleEntry(sale({ total: 120, taxes: [{ rate: 20, amount: 20 }], lines: [{ kind: 'service', net: 100 }] }), custom, EUR);
    expect(entry.lines.map((l) => l.account)).toEqual(['4110', '706100', '445712']);
  });
});

describe('bank entry (BQ)', () => {
  it.each<[string, number, string[]]>([
    ['a payment debits the bank and credits the customer', 500, ['512 D 50000', '411/CL-00001 C 50000']],
    ['a reversal swaps the sides', -500, ['512 C 50000', '411/CL-00001 D 50000']],
  ])('%s', (_label, amount, expected) => {
    const entry = paymentEntry(
      {
        invoiceNumber: 'F2026-0001',
        date: '2026-04-01',
        validDate: '2026-04-01',
        recordedAt: '2026-04-01T10:00:00.000Z',
        customer,
        amount,
        method: 'transfer',
      },
      accounts,
      EUR,
    );
    expect(summary(entry)).toEqual(expected);
    expect(entry.journal).toBe('BQ');
    expect(entryBalance(entry)).toBe(0n);
  });
});

/** USD amounts at 1 EUR = `rate` USD, to EUR cents, as the service converts them. */
const usd = (rate: string): Conversion => ({
  precision: 2,
  currency: 'USD',
  sourcePrecision: 2,
  convert: (units) =>
    rescale(toUnits4(convertAmount(unitsToDecimalText(units, 2), { code: 'USD', rate }, { code: 'EUR', rate: '1' })), INPUT_SCALE, 2),
});

describe('foreign currency', () => {
  it('converts to the accounting currency, balances despite rounding, and keeps the amount in the document currency', () => {
    // 3 lines of 0.01 USD-cent-rounding traps at 1 EUR = 1.085 USD.
    const doc = sale({
      total: 100.01,
      taxes: [
        { rate: 5.5, amount: 5.21 },
        { rate: 20, amount: 0.8 },
      ],
      shipping: 3.33,
      lines: [
        { kind: 'service', net: 45.67 },
        { kind: 'goods', net: 45 },
      ],
    });
    const entry = saleEntry(doc, accounts, usd('1.085'));
    expect(entryBalance(entry)).toBe(0n);
    expect(entry.lines[0]).toMatchObject({ account: '411', foreign: { units: 10001n, precision: 2, currency: 'USD' } });
    expect(entry.lines.every((l) => l.foreign?.currency === 'USD')).toBe(true);
  });
});

const rate = fc.constantFrom(0, 2.1, 5.5, 10, 20);
const cents = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 100);
const lineArb = fc.record({
  quantity: fc.integer({ min: -200, max: 10_000 }).map((n) => n / 100),
  unit_price: cents(1_000_000),
  discount_type: fc.constantFrom('percent' as const, 'amount' as const, null),
  discount_value: cents(20_000),
  taxes: fc.array(rate, { maxLength: 2 }).map((rates) => rates.map((r, i) => ({ title: i === 0 ? 'TVA' : 'Taxe locale', rate: r }))),
  kind: fc.constantFrom('goods' as const, 'service' as const),
});
const documentArb = fc.record({
  items: fc.array(lineArb, { maxLength: 20 }),
  discount_type: fc.constantFrom('percent' as const, 'amount' as const, null),
  discount_value: cents(50_000),
  shipping: cents(10_000),
  price_mode: fc.constantFrom('ht' as const, 'ttc' as const),
  type: fc.constantFrom('invoice' as const, 'credit' as const),
  deposit: fc.boolean(),
  deduction: fc.option(fc.record({ total: cents(100_000), vat: cents(10_000) }), { nil: null }),
  rate: fc.option(
    fc.integer({ min: 1, max: 5_000_000 }).map((n) => String(n / 1_000_000)),
    { nil: null },
  ),
});

describe('property: any document gives a balanced entry', () => {
  it('debits = credits to the cent, 411 carries the total, no line is negative or zero', () => {
    fc.assert(
      fc.property(documentArb, (d) => {
        const totals = computeTotals(d);
        const doc = sale({
          type: d.type,
          deposit: d.deposit,
          total: totals.total,
          shipping: totals.shipping,
          taxes: totals.taxes,
          lines: d.items.map((item, i) => ({ kind: item.kind, net: totals.lines[i]?.gross_total ?? 0 })),
          deductions: d.deduction
            ? [{ number: 'F2026-0001', total: d.deduction.total, taxes: [{ rate: 20, amount: d.deduction.vat }] }]
            : [],
        });
        const conversion = d.rate === null ? EUR : usd(d.rate);
        const entry = saleEntry(doc, accounts, conversion);
        expect(entryBalance(entry)).toBe(0n);
        for (const l of entry.lines) {
          expect(l.debit >= 0n && l.credit >= 0n && (l.debit === 0n) !== (l.credit === 0n)).toBe(true);
        }
        if (d.rate === null && !d.deduction) {
          const customerSide = entry.lines.filter((l) => l.account === '411').reduce((a, l) => a + l.debit - l.credit, 0n);
          const total = rescale(toUnits4(totals.total), INPUT_SCALE, 2);
          expect(customerSide).toBe(d.type === 'credit' ? -total : total);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('FEC text', () => {
  const invoice = saleEntry(
    sale({
      number: 'F2026-0002',
      date: '2026-03-12',
      customer: { number: 'CL-00002', name: 'Café\tdu Port\nMarseille' },
      total: 1234567.89,
      taxes: [{ rate: 20, amount: 205761.31 }],
      lines: [{ kind: 'service', net: 1028806.58 }],
    }),
    accounts,
    EUR,
  );
  const earlier = saleEntry(sale({ total: 12, taxes: [{ rate: 20, amount: 2 }], lines: [{ kind: 'service', net: 10 }] }), accounts, EUR);
  const payment = paymentEntry(
    {
      invoiceNumber: 'F2026-0001',
      date: '2026-03-10',
      validDate: '2026-03-11',
      recordedAt: '2026-03-11T08:00:00.000Z',
      customer,
      amount: 12,
      method: 'card',
    },
    accounts,
    EUR,
  );
  const text = fecText([invoice, payment, earlier], 2);
  const rows = text.split('\r\n');

  it('has the 18 fields in order on the first line, one CRLF line per entry line, and ends with CRLF', () => {
    expect(rows[0]).toBe(FEC_FIELDS.join('\t'));
    expect(FEC_FIELDS).toHaveLength(18);
    expect(rows.at(-1)).toBe('');
    expect(rows.slice(1, -1)).toHaveLength(invoice.lines.length + payment.lines.length + earlier.lines.length);
    for (const row of rows.slice(1, -1)) expect(row.split('\t')).toHaveLength(18);
  });

  it('orders entries by date (sales before bank on a day), numbers them per journal, dates YYYYMMDD, amounts with a comma', () => {
    const cells = rows.slice(1, -1).map((r) => r.split('\t'));
    expect(cells.map((c) => `${c[0]} ${c[2]} ${c[3]} ${c[8]}`)).toEqual([
      'VT VT000001 20260310 F2026-0001',
      'VT VT000001 20260310 F2026-0001',
      'VT VT000001 20260310 F2026-0001',
      'BQ BQ000001 20260310 F2026-0001',
      'BQ BQ000001 20260310 F2026-0001',
      'VT VT000002 20260312 F2026-0002',
      'VT VT000002 20260312 F2026-0002',
      'VT VT000002 20260312 F2026-0002',
    ]);
    expect(cells[3]?.[15]).toBe('20260311'); // ValidDate: when the payment was recorded
    const big = cells[5];
    expect(big?.slice(11, 13)).toEqual(['1234567,89', '0,00']);
    expect(cells.every((c) => /^\d+,\d{2}$/.test(c[11] ?? '') && /^\d+,\d{2}$/.test(c[12] ?? ''))).toBe(true);
  });

  it('a tab or line break inside a name cannot shift the columns', () => {
    const cells = rows[6]?.split('\t') ?? [];
    expect(cells[7]).toBe('Café du Port Marseille');
    expect(cells[10]).toBe('Facture F2026-0002 Café du Port Marseille');
  });

  it('with no entry, is the header line alone', () => {
    expect(fecText([], 2)).toBe(`${FEC_FIELDS.join('\t')}\r\n`);
  });

  it('fills Montantdevise and Idevise for a document in another currency', () => {
    const foreign = saleEntry(sale({ total: 108.5, lines: [{ kind: 'service', net: 108.5 }] }), accounts, usd('1.085'));
    const cells = fecText([foreign], 2).split('\r\n')[1]?.split('\t') ?? [];
    expect(cells.slice(11, 13)).toEqual(['100,00', '0,00']);
    expect(cells.slice(16, 18)).toEqual(['108,50', 'USD']);
  });

  it('is named {SIREN}FEC{YYYYMMDD}.txt', () => {
    expect(fecFileName('552032534', '2027-01-15')).toBe('552032534FEC20270115.txt');
  });
});

describe('ISO-8859-15', () => {
  it('encodes French text, œ and € on one byte each; typographic quotes and dashes plainly; anything else becomes ?', () => {
    expect([...encodeLatin9('é€œŒ')]).toEqual([0xe9, 0xa4, 0xbd, 0xbc]);
    expect(encodeLatin9('Café ✓ ¤').toString('latin1')).toBe('Café ? ?');
    expect(new TextDecoder('iso-8859-15').decode(encodeLatin9('L’Atelier — « 12,50\u202f€ »'))).toBe("L'Atelier - « 12,50 € »");
  });

  it('gives, for any text, the bytes a character-by-character encoder gives (surrogate pairs, lone surrogates, « … »)', () => {
    const plain: Record<string, string> = {
      '‘': "'",
      '’': "'",
      '‚': "'",
      '“': '"',
      '”': '"',
      '„': '"',
      '–': '-',
      '—': '-',
      '‑': '-',
      '…': '...',
      '\u202f': ' ',
      '\u2009': ' ',
    };
    const specials: Record<string, number> = { '€': 0xa4, Š: 0xa6, š: 0xa8, Ž: 0xb4, ž: 0xb8, Œ: 0xbc, œ: 0xbd, Ÿ: 0xbe };
    const latin1Only = new Set([0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe]);
    const byCharacter = (text: string) =>
      [...[...text].map((c) => plain[c] ?? c).join('')].map((char) => {
        const code = char.codePointAt(0) ?? 0x3f;
        return specials[char] ?? (code < 0x100 && !latin1Only.has(code) ? code : 0x3f);
      });
    const pieces = fc.constantFrom('é', 'a', '€', 'œ', '…', '’', '\u202f', '¤', '✓', '😀', '\ud800', '\udc00', '\t', 'Ÿ', 'ÿ');
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ unit: 'binary' })), { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect([...encodeLatin9(text)]).toEqual(byCharacter(text));
      }),
    );
  });
});
