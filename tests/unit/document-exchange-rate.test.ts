import { describe, expect, it } from 'vitest';
import { documentRate, sameRate } from '../../src/shared/exchange';
import { documentInputSchema, exchangeRateInputSchema } from '../../src/shared/schemas/document';
import { recurringInvoiceInputSchema } from '../../src/shared/schemas/recurring-invoice';
import { defaultAppSettings } from '../../src/shared/schemas/settings';
import { blankForm, blankLine, draftOf } from '../../src/client/routes/documents/editor/form-state';
import { toRenderDocument } from '../../src/client/render/to-render-document';
import type { DocumentAnswer } from '../../src/shared/schemas/document-model';

describe('exchangeRateInputSchema: a draft’s rate as typed', () => {
  it.each([
    ['1,085', '1.085'],
    [' 1,0850 ', '1.085'],
    ['1\u202f234,5', '1234.5'],
    ['0,000001', '0.000001'],
    [1.1, '1.1'],
    ['162.35', '162.35'],
    ['', null],
    ['   ', null],
  ])('%j → %j', (typed, expected) => {
    expect(exchangeRateInputSchema.parse(typed)).toBe(expected);
  });

  it.each([
    [0, 'Le taux de change doit être supérieur à 0'],
    ['-1,085', 'Le taux de change doit être supérieur à 0'],
    ['0,0000001', 'Taux de change : 6 décimales au plus'],
    [0.1 + 0.2, 'Taux de change : 6 décimales au plus'],
    ['1,2,3', 'Le taux de change doit être un nombre (ex. 1,085)'],
    ['1 EUR', 'Le taux de change doit être un nombre (ex. 1,085)'],
    [Number.NaN, 'Le taux de change doit être un nombre (ex. 1,085)'],
    [true, 'Le taux de change doit être un nombre (ex. 1,085)'],
    [{ rate: 1 }, 'Le taux de change doit être un nombre (ex. 1,085)'],
    ['1000000001', 'Le taux de change ne peut dépasser 1 000 000 000'],
  ])('refuses %j: « %s »', (typed, message) => {
    const result = exchangeRateInputSchema.safeParse(typed);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([message]);
  });

  it('is optional and nullable in the document form, and names its field when refused', () => {
    const form = { date: '2026-11-02', currency: 'USD' };
    expect(documentInputSchema.parse(form).exchange_rate).toBeUndefined();
    expect(documentInputSchema.parse({ ...form, exchange_rate: null }).exchange_rate).toBeNull();
    expect(documentInputSchema.parse({ ...form, exchange_rate: '1,1' }).exchange_rate).toBe('1.1');
    const refused = documentInputSchema.safeParse({ ...form, exchange_rate: 'abc' });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['exchange_rate', 'Le taux de change doit être un nombre (ex. 1,085)'],
    ]);
  });

  it('is no field of a recurring invoice: each occurrence is converted at the rate of its day', () => {
    const model = recurringInvoiceInputSchema.parse({
      customer_id: 1,
      start_date: '2026-11-02',
      currency: 'USD',
      exchange_rate: '1,1',
      items: [{ item: 'Maintenance', quantity: 1, unit_price: 100 }],
    });
    expect(model).not.toHaveProperty('exchange_rate');
  });
});

describe('documentRate: the rate a document is converted at', () => {
  const usd = { currency: 'USD', base: 'EUR', settings: '1.085' };
  it.each([
    [
      { ...usd, own: '1,1' },
      { rate: '1.1', source: 'own' },
    ],
    [
      { ...usd, own: '1.1' },
      { rate: '1.1', source: 'own' },
    ],
    [
      { ...usd, own: 1.2 },
      { rate: '1.2', source: 'own' },
    ],
    [
      { ...usd, own: null },
      { rate: '1.085', source: 'settings' },
    ],
    [
      { ...usd, own: undefined },
      { rate: '1.085', source: 'settings' },
    ],
    [
      { ...usd, own: '' },
      { rate: '1.085', source: 'settings' },
    ],
    [
      { ...usd, own: null, settings: null },
      { rate: null, source: 'none' },
    ],
    [
      { ...usd, currency: 'EUR', own: '1,1' },
      { rate: '1', source: 'base' },
    ],
    [
      { ...usd, own: '0' },
      { rate: null, source: 'own', error: 'Le taux de change doit être supérieur à 0' },
    ],
    [
      { ...usd, own: '1,0,1' },
      { rate: null, source: 'own', error: 'Le taux de change doit être un nombre (ex. 1,085)' },
    ],
  ])('%o → %o', (params, expected) => {
    expect(documentRate(params)).toEqual(expected);
  });

  it('compares rates as exact decimals', () => {
    expect(sameRate('1.0850', '1,085')).toBe(true);
    expect(sameRate('1.085', 1.085)).toBe(true);
    expect(sameRate('1.085', '1.0851')).toBe(false);
  });
});

describe('the editor’s form and preview', () => {
  it('loads a saved rate as banks quote it, and none as none', () => {
    const answer = { ...blankForm('invoice', { currency: 'USD' }), items: [], exchange_rate: '1.1' } as unknown as DocumentAnswer;
    expect(draftOf(answer).exchange_rate).toBe('1,1000');
    expect(draftOf({ ...answer, exchange_rate: null }).exchange_rate).toBeNull();
    expect(blankForm('invoice').exchange_rate).toBeNull();
  });

  it('converts the unsaved form’s VAT at the rate typed, else at the settings’ rate, never at a rate that does not read', () => {
    const settings = defaultAppSettings();
    const rates = [{ code: 'USD', rate: '1.085' }];
    // 1 000 USD HT at 20 %: 200 USD of VAT.
    const form = (exchange_rate: string | null) =>
      blankForm('invoice', {
        date: '2026-11-02',
        currency: 'USD',
        exchange_rate,
        items: [blankLine({ item: 'Conseil', quantity: '1', unit_price: '1000', taxes: [{ title: 'TVA 20 %', rate: 20 }] })],
      });
    const context = { profile: { name: 'Atelier Fontaine', legal_form: 'SARL' }, settings, rates };
    // 200 / 1,1 = 181,818… → 181,82 €; 200 / 1,085 = 184,331… → 184,33 €.
    expect(toRenderDocument({ form: form('1,1') }, context).vat_in_base).toMatchObject({ rate: '1.1', total: 181.82 });
    expect(toRenderDocument({ form: form(null) }, context).vat_in_base).toMatchObject({ rate: '1.085', total: 184.33 });
    expect(toRenderDocument({ form: form('') }, context).vat_in_base).toMatchObject({ rate: '1.085', total: 184.33 });
    expect(toRenderDocument({ form: form('1,,1') }, context).vat_in_base).toBeNull();
    expect(toRenderDocument({ form: form(null) }, { ...context, rates: [] }).vat_in_base).toBeNull();
  });
});
