import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryBalance, type FecEntry, paymentEntry, type SaleDocument, saleEntry, sameCurrency } from '../../src/shared/fec/entries';
import {
  bankLineEntry,
  type BankLineRecord,
  expensePaymentEntry,
  purchaseEntry,
  type PurchaseRecord,
  reversedBankPaymentEntry,
} from '../../src/shared/fec/purchase-entries';
import { checkFec } from '../../src/shared/fec/check';
import { FEC_FIELDS, fecFileName, fecText } from '../../src/shared/fec/format';
import { fiscalYearClosingIn } from '../../src/shared/fec/fiscal-year';
import { defaultAccountingSettings } from '../../src/shared/schemas/accounting';
import { sameSupplier, supplierAccountNumber } from '../../src/shared/supplier-identity';

const accounts = defaultAccountingSettings();
const EUR = sameCurrency(2);
const summary = (entry: FecEntry) =>
  entry.lines.map((l) => `${l.account}${l.aux ? `/${l.aux.number}` : ''} ${l.debit > 0n ? 'D' : 'C'} ${l.debit > 0n ? l.debit : l.credit}`);

describe('fiscal year closing in a year', () => {
  it.each<[string | null, number, { from: string | null; to: string } | { error: string }]>([
    [null, 2026, { from: '2026-01-01', to: '2026-12-31' }],
    ['2025-12-31', 2025, { from: null, to: '2025-12-31' }],
    ['2025-12-31', 2026, { from: '2026-01-01', to: '2026-12-31' }],
    ['2026-06-30', 2026, { from: null, to: '2026-06-30' }],
    ['2026-06-30', 2027, { from: '2026-07-01', to: '2027-06-30' }],
    ['2026-06-30', 2029, { from: '2028-07-01', to: '2029-06-30' }],
    // The last day of February stays the last day of February, in leap years too.
    ['2027-02-28', 2028, { from: '2027-03-01', to: '2028-02-29' }],
    ['2028-02-29', 2029, { from: '2028-03-01', to: '2029-02-28' }],
    ['2028-02-29', 2032, { from: '2031-03-01', to: '2032-02-29' }],
    ['2026-09-15', 2027, { from: '2026-09-16', to: '2027-09-15' }],
    [
      '2025-12-31',
      2024,
      { error: 'Aucun exercice ne se clôt en 2024 : le premier exercice se clôt le 31/12/2025 (Paramètres → Comptabilité)' },
    ],
  ])('first closing %s, year %i', (first, year, expected) => {
    expect(fiscalYearClosingIn(first, year)).toEqual(expected);
  });

  it('names the file after the closing date, not the day of the export', () => {
    const year = fiscalYearClosingIn('2026-06-30', 2027);
    expect('to' in year && fecFileName('552032534', year.to)).toBe('552032534FEC20270630.txt');
  });
});

describe('suppliers', () => {
  it.each([
    [{ siren: '552032534', vatNumber: '', name: 'A' }, { siren: '552 032 534', vatNumber: '', name: 'B' }, true],
    [{ siren: '552032534', vatNumber: '', name: 'Acme' }, { siren: '732829320', vatNumber: '', name: 'Acme' }, false],
    [{ siren: '', vatNumber: 'NL123456789B01', name: 'X' }, { siren: '', vatNumber: 'nl 1234 56789 b01', name: 'Y' }, true],
    [{ siren: '', vatNumber: '', name: 'Éditions Martin SARL' }, { siren: '', vatNumber: '', name: 'editions martin' }, true],
    [{ siren: '', vatNumber: '', name: 'Martin' }, { siren: '', vatNumber: '', name: 'Martine' }, false],
  ])('%o and %o: same supplier %s', (a, b, same) => {
    expect(sameSupplier(a, b)).toBe(same);
  });

  it.each([
    [{ siren: '552032534', vatNumber: 'FR40552032534', name: 'Acme' }, 'F552032534'],
    [{ siren: '', vatNumber: 'NO 999 999 999 MVA', name: 'Fjord AS' }, 'FNO999999999MVA'],
    [{ siren: '', vatNumber: '', name: 'Café du Port' }, 'FCAFEDUPORT'],
  ])('auxiliary account of %o is %s', (supplier, number) => {
    expect(supplierAccountNumber(supplier)).toBe(number);
  });
});

const purchase = (overrides: Partial<PurchaseRecord>): PurchaseRecord => ({
  kind: 'expense',
  reference: 'FA-17',
  date: '2026-03-10',
  validDate: '2026-03-10',
  recordedAt: '2026-03-10T09:00:00.000Z',
  supplier: { number: 'F552032534', name: 'Fournitures Martin' },
  account: '606400',
  accountLabel: 'Fournitures administratives',
  amount: 120,
  vat: [{ rate: 20, amount: 20, deductible: true }],
  reverseCharge: '',
  ...overrides,
});

describe('purchases entry (AC)', () => {
  it.each<[string, Partial<PurchaseRecord>, string[]]>([
    ['deductible VAT to 44566, the rest to the category', {}, ['606400 D 10000', '44566 D 2000', '401/F552032534 C 12000']],
    [
      'foreign VAT not deductible stays in the charge',
      { amount: 121, vat: [{ rate: 21, amount: 21, deductible: false }] },
      ['606400 D 12100', '401/F552032534 C 12100'],
    ],
    [
      'two rates, one deductible',
      {
        amount: 131,
        vat: [
          { rate: 20, amount: 20, deductible: true },
          { rate: 10, amount: 1, deductible: false },
        ],
      },
      ['606400 D 11100', '44566 D 2000', '401/F552032534 C 13100'],
    ],
    [
      'self-assessed: the supplier is owed HT, the VAT due to 4452 and deducted on 44566',
      { reverseCharge: 'services', amount: 1000, vat: [{ rate: 20, amount: 200, deductible: true }] },
      ['606400 D 100000', '44566 D 20000', '401/F552032534 C 100000', '4452 C 20000'],
    ],
    [
      'a supplier credit note (stored negative) reverses the sides',
      { kind: 'credit_note', amount: -60, vat: [{ rate: 20, amount: -10, deductible: true }] },
      ['606400 C 5000', '44566 C 1000', '401/F552032534 D 6000'],
    ],
  ])('%s', (_label, overrides, expected) => {
    const entry = purchaseEntry(purchase(overrides), accounts, EUR);
    expect(summary(entry).sort()).toEqual([...expected].sort());
    expect(entryBalance(entry)).toBe(0n);
    expect(entry.journal).toBe('AC');
  });
});

const bankLine = (overrides: Partial<BankLineRecord>): BankLineRecord => ({
  reference: 'VIR-1',
  date: '2026-04-02',
  validDate: '2026-04-03',
  recordedAt: '2026-04-03T08:00:00.000Z',
  label: 'VIR BOULANGERIE MARTIN',
  bank: { account: '51201', label: 'Banque Compte courant' },
  amount: 500,
  parts: [],
  ...overrides,
});

describe('bank entries (BQ, OD)', () => {
  const customer = { number: 'CL-00001', name: 'Boulangerie Martin' };
  const supplier = { number: 'F552032534', name: 'Fournitures Martin' };
  it.each<[string, Partial<BankLineRecord>, string[]]>([
    [
      'a credit that paid two invoices',
      {
        amount: 500,
        parts: [
          { kind: 'invoice', amount: 300, party: customer, reference: 'F-1' },
          { kind: 'invoice', amount: 200, party: customer, reference: 'F-2' },
        ],
      },
      ['51201 D 50000', '411/CL-00001 C 30000', '411/CL-00001 C 20000'],
    ],
    [
      'a credit partly explained: the rest waits on 471',
      { amount: 500, parts: [{ kind: 'invoice', amount: 300, party: customer, reference: 'F-1' }] },
      ['51201 D 50000', '411/CL-00001 C 30000', '471 C 20000'],
    ],
    ['a line nobody matched: all of it on 471', { amount: -42.5 }, ['51201 C 4250', '471 D 4250']],
    [
      'a debit that paid an expense',
      { amount: -120, parts: [{ kind: 'expense', amount: 120, party: supplier, reference: 'FA-17' }] },
      ['51201 C 12000', '401/F552032534 D 12000'],
    ],
  ])('%s', (_label, overrides, expected) => {
    const entry = bankLineEntry(bankLine(overrides), accounts, EUR);
    expect(summary(entry).sort()).toEqual([...expected].sort());
    expect(entryBalance(entry)).toBe(0n);
  });

  it('a payment with a fee: the bank receives the net, 627 the fee, the customer is cleared of the whole', () => {
    const entry = paymentEntry(
      {
        invoiceNumber: 'F-1',
        date: '2026-04-01',
        validDate: '2026-04-01',
        recordedAt: '2026-04-01T10:00:00.000Z',
        customer,
        amount: 100,
        method: 'card',
        fee: 1.65,
      },
      accounts,
      EUR,
    );
    expect(summary(entry)).toEqual(['512 D 9835', '627 D 165', '411/CL-00001 C 10000']);
  });

  it('an expense paid by hand clears 401 from 512; a reversed bank payment goes back to 411 against 471 (OD)', () => {
    const paid = expensePaymentEntry(
      { reference: 'FA-17', date: '2026-04-05', validDate: '2026-04-05', recordedAt: '2026-04-05T10:00:00.000Z', supplier, amount: 120 },
      accounts,
      EUR,
    );
    expect(summary(paid)).toEqual(['401/F552032534 D 12000', '512 C 12000']);
    const reversed = reversedBankPaymentEntry(
      { invoiceNumber: 'F-1', date: '2026-04-06', validDate: '2026-04-06', recordedAt: '2026-04-06T10:00:00.000Z', customer, amount: 300 },
      accounts,
      EUR,
    );
    expect(reversed.journal).toBe('OD');
    expect(summary(reversed)).toEqual(['411/CL-00001 D 30000', '471 C 30000']);
  });
});

// « Test Compta Demat »: the structural checks over generated books, and over files broken on purpose.

const sale = (n: number, date: string, customer: { number: string; name: string }, total: number): SaleDocument => ({
  type: 'invoice',
  deposit: false,
  number: `F2026-${String(n).padStart(4, '0')}`,
  date,
  validDate: date,
  recordedAt: `${date}T09:00:00.000Z`,
  customer,
  total,
  shipping: 0,
  taxes: [{ rate: 20, amount: Math.round((total / 6) * 100) / 100 }],
  lines: [{ kind: 'service', net: total }],
  deductions: [],
});

describe('structural checks (Test Compta Demat)', () => {
  const book = () =>
    fecText(
      [
        saleEntry(sale(1, '2026-03-10', { number: 'CL-00001', name: 'Boulangerie Martin' }, 120), accounts, EUR),
        // The same customer renamed since: one label for its auxiliary account all the same.
        saleEntry(sale(2, '2026-03-12', { number: 'CL-00001', name: 'Boulangerie Martin & Fils' }, 60), accounts, EUR),
        purchaseEntry(purchase({}), accounts, EUR),
        purchaseEntry(purchase({ account: '606400', accountLabel: 'Fournitures', reference: 'FA-18' }), accounts, EUR),
        bankLineEntry(bankLine({ parts: [] }), accounts, EUR),
      ],
      2,
    );

  it('a generated book passes, with one label per account and per auxiliary account', () => {
    expect(checkFec(book(), { closingDate: '2026-12-31', openingDate: '2026-01-01' })).toEqual([]);
    const rows = book()
      .split('\r\n')
      .slice(1, -1)
      .map((r) => r.split('\t'));
    expect(new Set(rows.filter((r) => r[6] === 'CL-00001').map((r) => r[7]))).toEqual(new Set(['Boulangerie Martin & Fils']));
    expect(new Set(rows.filter((r) => r[4] === '606400').map((r) => r[5])).size).toBe(1);
  });

  const header = FEC_FIELDS.join('\t');
  const row = (values: Partial<Record<(typeof FEC_FIELDS)[number], string>>) =>
    FEC_FIELDS.map(
      (f) =>
        ({
          JournalCode: 'VT',
          JournalLib: 'Ventes',
          EcritureNum: 'VT000001',
          EcritureDate: '20260310',
          CompteNum: '411',
          CompteLib: 'Clients',
          CompAuxNum: '',
          CompAuxLib: '',
          PieceRef: 'F1',
          PieceDate: '20260310',
          EcritureLib: 'Facture F1',
          Debit: '0,00',
          Credit: '0,00',
          EcritureLet: '',
          DateLet: '',
          ValidDate: '20260310',
          Montantdevise: '',
          Idevise: '',
          ...values,
        })[f],
    ).join('\t');
  const file = (...rows: string[]) => `${[header, ...rows].join('\r\n')}\r\n`;
  const balanced = [row({ Debit: '10,00' }), row({ CompteNum: '706', CompteLib: 'Ventes', Credit: '10,00' })];

  it.each<[string, string, RegExp]>([
    ['the fields out of order', `${FEC_FIELDS.slice().reverse().join('\t')}\r\n`, /En-tête/],
    ['a line of 17 fields', file(row({}).split('\t').slice(1).join('\t')), /17 champs/],
    ['an unbalanced entry', file(row({ Debit: '10,00' }), row({ CompteNum: '706', CompteLib: 'Ventes', Credit: '9,99' })), /déséquilibrée/],
    ['a date that does not exist', file(row({ Debit: '10,00', EcritureDate: '20260230' }), balanced[1] ?? ''), /n’est pas une date/],
    ['an amount with a dot', file(row({ Debit: '10.00' })), /n’est pas un montant/],
    ['an empty mandatory field', file(row({ Debit: '10,00', PieceRef: '' }), balanced[1] ?? ''), /PieceRef est obligatoire/],
    [
      'a gap in the numbering',
      file(...balanced, ...balanced.map((r) => r.replaceAll('VT000001', 'VT000003'))),
      /n’est pas la n° 2 de la séquence/,
    ],
    [
      'an account with two labels',
      file(...balanced, ...balanced.map((r) => r.replaceAll('VT000001', 'VT000002').replace('706\tVentes\t', '706\tVentes de services\t'))),
      /deux libellés/,
    ],
    ['an entry after the closing date', file(...balanced.map((r) => r.replaceAll('20260310', '20270110'))), /après la clôture/],
    ['a foreign amount without its currency', file(row({ Debit: '10,00', Montantdevise: '12,00' }), balanced[1] ?? ''), /vont ensemble/],
  ])('refuses %s', (_label, text, problem) => {
    const problems = checkFec(text, { closingDate: '2026-12-31' });
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('accepts the well-formed small file, and a file named after the closing date only', () => {
    expect(checkFec(file(...balanced), { closingDate: '2026-12-31' })).toEqual([]);
    expect(checkFec(file(...balanced), { closingDate: '2026-12-31', siren: '552032534', filename: '552032534FEC20261231.txt' })).toEqual(
      [],
    );
    expect(checkFec(file(...balanced), { closingDate: '2026-12-31', siren: '552032534', filename: '552032534FEC20270115.txt' })).toEqual([
      'Nom du fichier : « 552032534FEC20270115.txt », attendu « 552032534FEC20261231.txt »',
    ]);
  });
});

// Random books: customers and suppliers renamed, rates, credit notes, bank lines matched in part, reversals, fees.
const day = fc.integer({ min: 0, max: 364 }).map((n) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10));
const cents = (max: number) => fc.integer({ min: 1, max }).map((n) => n / 100);
const party = (prefix: string) =>
  fc.record({
    number: fc.constantFrom(`${prefix}1`, `${prefix}2`, `${prefix}3`),
    name: fc.constantFrom('Martin', 'Café\tdu Port', 'Dupont & Fils'),
  });
const vatRows = fc.array(fc.record({ rate: fc.constantFrom(5.5, 10, 20, 21, 25), amount: cents(5_000), deductible: fc.boolean() }), {
  maxLength: 3,
});
const entryArb = fc.oneof(
  fc
    .record({ day, n: fc.integer({ min: 1, max: 999 }), customer: party('CL'), total: cents(500_000), credit: fc.boolean() })
    .map((d) => saleEntry({ ...sale(d.n, d.day, d.customer, d.total), type: d.credit ? 'credit' : 'invoice' }, accounts, EUR)),
  fc
    .record({
      day,
      supplier: party('F'),
      vat: vatRows,
      net: cents(500_000),
      credit: fc.boolean(),
      reverse: fc.constantFrom('' as const, 'goods' as const),
    })
    .map((d) => {
      const sign = d.credit ? -1 : 1;
      const vat = d.vat.map((v) => ({ ...v, amount: sign * v.amount }));
      const paid = d.reverse ? 0 : d.vat.reduce((a, v) => a + Math.round(v.amount * 100), 0) / 100;
      return purchaseEntry(
        purchase({
          kind: d.credit ? 'credit_note' : 'expense',
          date: d.day,
          supplier: d.supplier,
          amount: sign * (d.net + paid),
          vat,
          reverseCharge: d.reverse,
          account: d.credit ? '609000' : '606400',
          accountLabel: d.credit ? 'Rabais obtenus' : 'Fournitures',
        }),
        accounts,
        EUR,
      );
    }),
  fc
    .record({
      day,
      amount: fc.integer({ min: -500_000, max: 500_000 }).filter((n) => n !== 0),
      share: fc.integer({ min: 0, max: 100 }),
      who: party('CL'),
    })
    .map((d) => {
      const amount = d.amount / 100;
      const part = Math.floor(Math.abs(d.amount) * d.share) / 10_000;
      const parts =
        part > 0 ? [{ kind: amount > 0 ? ('invoice' as const) : ('expense' as const), amount: part, party: d.who, reference: 'X-1' }] : [];
      return bankLineEntry(bankLine({ date: d.day, amount, parts }), accounts, EUR);
    }),
  fc.record({ day, amount: cents(100_000), fee: fc.option(cents(500), { nil: undefined }), who: party('CL') }).map((d) =>
    paymentEntry(
      {
        invoiceNumber: 'F-9',
        date: d.day,
        validDate: d.day,
        recordedAt: `${d.day}T10:00:00Z`,
        customer: d.who,
        amount: d.amount,
        method: 'card',
        fee: d.fee,
      },
      accounts,
      EUR,
    ),
  ),
  fc
    .record({ day, amount: cents(100_000), who: party('CL') })
    .map((d) =>
      reversedBankPaymentEntry(
        { invoiceNumber: 'F-9', date: d.day, validDate: d.day, recordedAt: `${d.day}T10:00:00Z`, customer: d.who, amount: d.amount },
        accounts,
        EUR,
      ),
    ),
);

describe('property: any book passes the structural checks', () => {
  it('balanced per entry and per journal, numbered in sequence, one label per account', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 40 }), (entries) => {
        const text = fecText(entries, 2);
        expect(checkFec(text, { closingDate: '2026-12-31', openingDate: '2026-01-01' })).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
