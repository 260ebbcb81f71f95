import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fillPlaceholders,
  formatCustomerNumber,
  formatDocumentNumber,
  INVALID_CUSTOMER_NUMBER,
  INVALID_DOCUMENT_NUMBER,
} from '../../src/shared/numbering';
import { formatAddress, formatDateLong, formatDateShort, formatMoney } from '../../src/shared/format';
import { commaToDot, numericOnly } from '../../src/shared/input';
import { parseTime } from '../../src/shared/time-input';
import { CURRENCY_CATALOGUE, currencyPrecision, findCurrency } from '../../src/shared/currencies';
import { currencySchema } from '../../src/shared/schemas/currency';
import { defaultAppSettings, DEFAULT_ADDRESS_FORMAT } from '../../src/shared/schemas/settings';
import { EDITOR_TITLES, maturityLabel, NUMBER_LABELS, PAYMENT_METHODS, showsTotal, STATUSES } from '../../src/shared/status';
import { defined } from '../../src/shared/defined';

const ctx = { date: '2026-11-22', customer_id: 42, currency: 'EUR', order: 'BC-7' };

describe('document numbers', () => {
  it.each([
    [{ prefix: 'F', suffix: '', digit_count: 5 }, 42, 'F00042'],
    [{ prefix: 'F{year}-', suffix: '', digit_count: 4 }, 42, 'F2026-0042'],
    [{ prefix: '{year}{month}{day}-', suffix: '-{quarter}', digit_count: 3 }, 7, '20261122-007-Q4'],
    [{ prefix: 'C{customer_id}/', suffix: '/{currency}', digit_count: 2 }, 3, 'C42/03/EUR'],
    [{ prefix: '{order}-', suffix: '', digit_count: 0 }, 12, 'BC-7-12'],
    [{ prefix: 'F', suffix: '{inconnu}', digit_count: 2 }, 1, 'F01{inconnu}'],
    [{ prefix: 'F', suffix: '', digit_count: 2 }, 12345, 'F12345'], // the counter is never cut
  ])('%j with counter %i → %s', (numbering, counter, expected) => {
    expect(formatDocumentNumber(numbering, counter, ctx)).toBe(expected);
  });

  it.each([
    ['Q1', '2026-01-31'],
    ['Q1', '2026-03-01'],
    ['Q2', '2026-04-01'],
    ['Q3', '2026-09-30'],
    ['Q4', '2026-10-01'],
  ])('quarter %s for %s', (quarter, date) => {
    expect(fillPlaceholders('{quarter}', { date })).toBe(quarter);
  });

  it('shows SPEC’s fallback without numbering or counter', () => {
    expect(formatDocumentNumber(null, 1, ctx)).toBe(INVALID_DOCUMENT_NUMBER);
    expect(formatDocumentNumber({ prefix: 'F', suffix: '', digit_count: 3 }, null, ctx)).toBe('{INVALID TYPE OR NUMBER DOCUMENT}');
    expect(formatDocumentNumber({ prefix: 'F', suffix: '', digit_count: 3 }, 0, ctx)).toBe(INVALID_DOCUMENT_NUMBER);
  });

  it('numbers of one series sort in issue order and never collide', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_998 }), (n) => {
        const numbering = { prefix: 'F{year}-', suffix: '', digit_count: 5 };
        const a = formatDocumentNumber(numbering, n, ctx);
        const b = formatDocumentNumber(numbering, n + 1, ctx);
        expect(a < b).toBe(true);
      }),
    );
  });
});

describe('customer numbers', () => {
  it.each([
    [{ prefix: 'CL', separator: '-', digit_count: 5 }, 12, 'CL-00012'],
    [{ prefix: '', separator: '', digit_count: 3 }, 7, '007'],
    [null, 12, '0000012'],
    [{ prefix: 'CL', separator: '-', digit_count: 5 }, null, 'INVALID CLIENT ID'],
  ])('%j, %s → %s', (numbering, counter, expected) => {
    expect(formatCustomerNumber(numbering, counter)).toBe(expected);
  });
  it('uses the exported fallback', () => expect(formatCustomerNumber(null, undefined)).toBe(INVALID_CUSTOMER_NUMBER));
});

describe('money formatting', () => {
  const eur = defaultAppSettings().currency_format;
  it.each([
    [eur, 1234.5, undefined, '1234,50\u00a0€'],
    [{ ...eur, thousand: ' ' }, 1234567.891, undefined, '1 234 567,89\u00a0€'],
    [{ ...eur, currency_position: 'before' as const, use_space: false, decimal: '.', thousand: ',' }, 1234.5, 'USD', '$1,234.50'],
    [eur, -12.345, undefined, '\u221212,35\u00a0€'],
    [{ ...eur, precision: 0 }, 1500.5, 'JPY', '1501\u00a0¥'],
    [eur, 0, 'XXX', '0,00\u00a0XXX'],
  ])('%j: %d %s → %s', (format, amount, currency, expected) => {
    expect(formatMoney(amount, format, currency)).toBe(expected);
  });
});

describe('dates in French', () => {
  it('formats long and short', () => {
    expect(formatDateLong('2026-11-22')).toBe('22 novembre 2026');
    expect(formatDateShort('2026-11-22')).toBe('22/11/2026');
    expect(formatDateLong('2026-02-01')).toBe('1 février 2026');
  });
  it.each(['2026-02-30', '22/11/2026', '', '2026-13-01'])('gives nothing for %j', (value) => {
    expect(formatDateLong(value)).toBe('');
    expect(formatDateShort(value)).toBe('');
  });
});

describe('address template', () => {
  it('fills the default template and drops empty lines', () => {
    expect(
      formatAddress(DEFAULT_ADDRESS_FORMAT, {
        line1: '12 rue de la Paix',
        line2: '',
        postal_code: '75002',
        city: 'Paris',
        country: 'France',
      }),
    ).toEqual(['12 rue de la Paix', '75002 Paris', 'France']);
  });
  it('follows a custom template', () => {
    expect(formatAddress('{city} ({postal_code})\n{line1}', { line1: '1 place Bellecour', postal_code: '69002', city: 'Lyon' })).toEqual([
      'Lyon (69002)',
      '1 place Bellecour',
    ]);
    expect(formatAddress(DEFAULT_ADDRESS_FORMAT, null)).toEqual([]);
  });
});

describe('input helpers (SPEC §5)', () => {
  it.each([
    ['12.5', '12.5'],
    ['1a2b.3c', '12.3'],
    ['1.2.3', '1.23'],
    ['..5', '.5'],
    ['-3,5 €', '35'],
  ])('numericOnly(%j) = %j', (input, expected) => expect(numericOnly(input)).toBe(expected));

  it('commaToDot', () => expect(commaToDot('12,50')).toBe('12.50'));

  it.each([
    ['09:30', { hours: 9, minutes: 30, seconds: 0 }],
    ['9:05:07', { hours: 9, minutes: 5, seconds: 7 }],
    ['12:00 am', { hours: 0, minutes: 0, seconds: 0 }],
    ['12:15 PM', { hours: 12, minutes: 15, seconds: 0 }],
    ['7:45pm', { hours: 19, minutes: 45, seconds: 0 }],
    ['24:00', null],
    ['13:00 pm', null],
    ['10:60', null],
    ['midi', null],
  ])('parseTime(%j)', (input, expected) => expect(parseTime(input)).toEqual(expected));
});

describe('labels', () => {
  it('has SPEC’s status labels', () => {
    expect(Object.fromEntries(Object.entries(STATUSES).map(([k, v]) => [k, v.label]))).toMatchObject({
      paid: 'Payée',
      partial: 'Partiellement',
      pending: 'En attente',
      overdue: 'Exigible',
      unpaid: 'Impayée',
      draft: 'Brouillon',
      sent: 'Envoyé',
      canceled: 'Annulé',
      active: 'Activé',
    });
  });
  it('has SPEC’s titles, number and maturity labels', () => {
    expect(EDITOR_TITLES.invoice).toBe('Nouvelle facture');
    expect(EDITOR_TITLES.recurring).toBe('Créer une facture régulière');
    expect(NUMBER_LABELS.credit).toBe('Crédit n°');
    expect(maturityLabel('estimate')).toBe("Valide jusqu'au");
    expect(maturityLabel('order')).toBe('Date de livraison');
    expect(maturityLabel('invoice')).toBe("Date d'échéance");
    expect(showsTotal('delivery')).toBe(false);
    expect(PAYMENT_METHODS).toEqual({ transfer: 'Virement bancaire', check: 'Chèque', card: 'Carte bancaire', cash: 'Espèces' });
  });
});

describe('currency catalogue', () => {
  it('holds about 140 valid, unique currencies', () => {
    expect(CURRENCY_CATALOGUE.length).toBeGreaterThanOrEqual(140);
    for (const c of CURRENCY_CATALOGUE) expect(currencySchema.safeParse(c).success).toBe(true);
    expect(new Set(CURRENCY_CATALOGUE.map((c) => c.code)).size).toBe(CURRENCY_CATALOGUE.length);
  });
  it.each([
    ['EUR', '€', 2],
    ['USD', '$', 2],
    ['GBP', '£', 2],
    ['CHF', 'CHF', 2],
    ['JPY', '¥', 0],
    ['KWD', 'KWD', 3],
    ['XOF', 'F\u202fCFA', 0],
    ['XPF', 'FCFP', 0],
  ])('%s: native symbol %s, %i decimals', (code, symbol, decimals) => {
    const currency = defined(findCurrency(code), 'findCurrency(code)');
    expect(currency.symbol_native.replace(/\s/g, ' ')).toBe(symbol.replace(/\s/g, ' '));
    expect(currencyPrecision(code)).toBe(decimals);
  });
  it('defaults to 2 decimals for an unknown code', () => expect(currencyPrecision('ZZZ')).toBe(2));
});
