import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentSave, typingSave } from '../../src/shared/document-save';
import { documentInputSchema, type DocumentInput } from '../../src/shared/schemas/document';
import { toRenderDocument } from '../../src/client/render/to-render-document';
import { blankForm, blankLine } from '../../src/client/routes/documents/editor/form-state';

const VAT = { title: 'TVA 20 %', rate: 20 };
const REDUCED = { title: 'TVA 5,5 %', rate: 5.5 };
const profile = { name: 'Atelier Fontaine', vat_regime: 'normal' as const };

/** What the server's save writes for this form: the tRPC input schema, then the one save function. */
const saved = (form: DocumentInput, vat = true) => documentSave(documentInputSchema.parse(form), { vat });

/** What the unsaved preview draws of it. */
const previewed = (form: DocumentInput) => toRenderDocument({ form }, { profile });

/** The preview and the save say the same: same rows, same lines and amounts, same totals. */
function expectAgreement(form: DocumentInput) {
  const save = saved(form);
  const view = previewed(form);
  expect(typingSave(form, { vat: true })).toEqual(save);
  expect(view.deposit_request).toEqual(save.deposit_request);
  expect(view.additional_info).toEqual(save.additional_info);
  expect(view.sale_date).toEqual(save.sale_date);
  expect(view.purchase_order).toEqual(save.purchase_order);
  expect(view.lines.map((l) => [l.item, l.quantity, l.price, l.discount, l.total])).toEqual(
    save.items.map((l) => [l.item, l.quantity, l.price, l.discount, l.gross_total]),
  );
  const { subtotal, discount, taxes, tax, shipping, total } = save.totals;
  expect(view.totals).toMatchObject({ subtotal, discount, taxes, tax, shipping, total });
}

const base = (extra: Partial<DocumentInput> = {}): DocumentInput =>
  blankForm('invoice', {
    date: '2026-11-02',
    items: [blankLine({ item: 'Conseil', quantity: '3', unit_price: '150', taxes: [VAT] })],
    ...extra,
  });

describe('documentSave: the preview shows what the save writes', () => {
  it.each<[string, DocumentInput, (save: ReturnType<typeof saved>) => void]>([
    [
      'a deposit row with no description and an amount of 0 is dropped by both',
      base({
        deposit_request: [
          { description: '', amount: '0' },
          { description: 'Acompte', amount: '300' },
        ],
      }),
      (save) => expect(save.deposit_request).toEqual([{ description: 'Acompte', amount: 300 }]),
    ],
    [
      'a blank key/value row is dropped by both',
      base({
        additional_info: [
          { key: '', value: '' },
          { key: 'Chantier', value: 'Lyon 2e' },
        ],
      }),
      (save) => expect(save.additional_info).toEqual([{ key: 'Chantier', value: 'Lyon 2e' }]),
    ],
    ['a sale date equal to the date is not kept', base({ sale_date: '2026-11-02' }), (save) => expect(save.sale_date).toBeNull()],
    ['a sale date of its own is kept', base({ sale_date: '2026-10-15' }), (save) => expect(save.sale_date).toBe('2026-10-15')],
    [
      'amounts typed the French way, a line discount, a document discount and shipping at the main rate',
      base({
        discount_value: '5',
        shipping: '10,5',
        items: [
          blankLine({ item: 'Conseil', quantity: '3', unit_price: '150', discount_value: '10', taxes: [VAT] }),
          blankLine({ item: 'Livre', quantity: '4', unit_price: '12,5', taxes: [REDUCED] }),
        ],
      }),
      (save) => {
        expect(save.items.map((l) => l.gross_total)).toEqual([405, 50]);
        expect(save.shipping_tax).toEqual(VAT);
        expect(save.shipping_tax_auto).toBe(true);
      },
    ],
    [
      'prices including tax',
      base({ price_mode: 'ttc', items: [blankLine({ item: 'Repas', quantity: '2', unit_price: '33', taxes: [REDUCED] })] }),
      (save) => expect(save.totals.total).toBe(66),
    ],
    ['the purchase-order number trimmed', base({ purchase_order: '  BC-117  ' }), (save) => expect(save.purchase_order).toBe('BC-117')],
  ])('%s', (_name, form, check) => {
    check(saved(form));
    expectAgreement(form);
  });

  it('leaves a form that cannot be saved to the schema’s French message, and the preview counts the value as nothing', () => {
    const form = base({ items: [blankLine({ item: 'Conseil', quantity: '2', unit_price: '12,5x' })] });
    const result = documentInputSchema.safeParse(form);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Prix unitaire : un nombre est attendu']);
    expect(previewed(form).lines.map((l) => [l.item, l.total])).toEqual([['Conseil', 0]]);
  });

  const amount = fc.oneof(
    fc.integer({ min: 0, max: 100_000 }).map(String),
    fc.integer({ min: 0, max: 1_000_000 }).map((c) => `${Math.floor(c / 100)},${String(c % 100).padStart(2, '0')}`),
    fc.constant(''),
    fc.constant('0'),
  );
  const text = fc.constantFrom('', ' ', 'Acompte', 'Solde à la livraison', '  Chantier  ');
  const form = fc.record({
    price_mode: fc.constantFrom('ht' as const, 'ttc' as const),
    discount_type: fc.constantFrom('percent' as const, 'amount' as const),
    discount_value: fc.constantFrom('', '0', '5', '12,5'),
    shipping: amount,
    sale_date: fc.constantFrom(null, '2026-11-02', '2026-10-15'),
    deposit_request: fc.array(fc.record({ description: text, amount }), { maxLength: 4 }),
    additional_info: fc.array(fc.record({ key: text, value: text }), { maxLength: 3 }),
    items: fc.array(
      fc.record({
        item: text,
        quantity: fc.constantFrom('1', '3', '0,5', '', '12'),
        unit_price: amount,
        discount_value: fc.constantFrom('', '0', '10'),
        taxes: fc.constantFrom('none', 'vat', 'reduced').map((t) => (t === 'vat' ? [VAT] : t === 'reduced' ? [REDUCED] : [])),
      }),
      { maxLength: 6 },
    ),
  });

  it('agree on any form the save accepts (property)', () => {
    fc.assert(
      fc.property(form, ({ items, ...fields }) => {
        expectAgreement(base({ ...fields, items: items.map((line) => blankLine(line)) }));
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});

describe('typingSave: a form still being typed', () => {
  it('counts what does not parse yet as nothing, and keeps the rest', () => {
    const typing = base({
      items: [
        blankLine({ item: 'Conseil', quantity: '3', unit_price: '150', taxes: [VAT] }),
        blankLine({ item: 'En cours', quantity: '2', unit_price: '12,5x', taxes: [VAT] }),
      ],
      shipping: '-3',
    });
    const save = typingSave(typing, { vat: true });
    expect(save.items.map((l) => [l.item, l.unit_price, l.gross_total])).toEqual([
      ['Conseil', 150, 450],
      ['En cours', 0, 0],
    ]);
    expect(save.totals.shipping).toBe(0);
    expect(save.totals.total).toBe(540);
  });

  it('shows an empty date as empty, and a delivery address only once it is complete', () => {
    const save = typingSave(base({ date: '', delivery_address: { line1: '3 rue Neuve', city: '', postal_code: '' } }), { vat: true });
    expect(save.date).toBe('');
    expect(save.delivery_address).toBeNull();
    expect(save.totals.total).toBe(540);
  });

  it('drops a line’s tax without a title rather than the line', () => {
    const save = typingSave(
      base({ items: [blankLine({ item: 'Conseil', quantity: '1', unit_price: '100', taxes: [{ title: '', rate: 20 }] })] }),
      {
        vat: true,
      },
    );
    expect(save.items).toHaveLength(1);
    expect(save.items[0]?.taxes).toEqual([]);
    expect(save.totals.total).toBe(100);
  });
});
