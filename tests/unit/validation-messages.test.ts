import { describe, expect, it } from 'vitest';
import { customerInputSchema } from '../../src/shared/schemas/customer';
import { documentInputSchema } from '../../src/shared/schemas/document';
import { sharedFieldLabels } from '../../src/shared/schemas/labels';
import { paymentInputSchema } from '../../src/shared/schemas/payment';
import { fieldLabelAt, fieldMessages, validationMessages } from '../../src/shared/validation-messages';

describe('field labels on the schemas', () => {
  it.each([
    [documentInputSchema, ['items', 2, 'quantity'], 'Quantité'],
    [documentInputSchema, ['items', 0, 'taxes', 1, 'rate'], 'Taux de taxe'],
    [documentInputSchema, ['shipping'], 'Frais de port'],
    [documentInputSchema, ['maturity'], 'Échéance'],
    [customerInputSchema, ['shipping'], 'Adresse de livraison'],
    [customerInputSchema, ['address', 'line2'], 'Complément d’adresse'],
    [customerInputSchema, ['maturity'], 'Délai de paiement'],
    [paymentInputSchema, ['amount'], 'Montant du paiement'],
  ] as const)('%#: the label at %j is %s', (schema, path, label) => {
    expect(fieldLabelAt(schema, path)).toBe(label);
  });

  it('has no label for a path the schema does not have', () => {
    expect(fieldLabelAt(customerInputSchema, ['nope'])).toBeUndefined();
  });

  it('indexes the labels by key for callers without the schema', () => {
    const { byKey } = sharedFieldLabels();
    expect(byKey.get('unit_price')).toBe('Prix unitaire');
    expect(byKey.get('shipping')).toBe('Adresse de livraison');
    expect(byKey.get('paymentId')).toBe('Paiement');
  });
});

describe('the one French formatter', () => {
  it('names the field and the document line, walking the schema', () => {
    const parsed = documentInputSchema.safeParse({ items: [{}, {}, { quantity: 'x' }], shipping: -1 });
    expect(parsed.success).toBe(false);
    const messages = validationMessages(parsed.error?.issues ?? [], documentInputSchema);
    expect(messages.some((m) => m.startsWith('Ligne 3 — Quantité'))).toBe(true);
    expect(messages).toContain('Frais de port : ils ne peuvent être négatifs');
  });

  it('prefixes a message that does not name its field', () => {
    expect(validationMessages([{ path: ['theme'], message: 'Option invalide' }], new Map([['theme', 'Thème']]))).toEqual([
      'Thème : Option invalide',
    ]);
    expect(validationMessages([{ path: ['address', 'city'], message: 'Trop long' }], customerInputSchema)).toEqual(['Ville : Trop long']);
  });

  it('keeps each form field’s first message, keyed by its path', () => {
    const issues = [
      { path: ['address', 'city'], message: 'a' },
      { path: ['address', 'city'], message: 'b' },
      { path: [], message: 'c' },
    ];
    expect(fieldMessages(issues)).toEqual({ 'address.city': 'a', _: 'c' });
    expect(fieldMessages(issues, 1)).toEqual({ address: 'a', _: 'c' });
  });
});
