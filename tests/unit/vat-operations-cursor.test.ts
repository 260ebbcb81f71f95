import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVatOperationsCursor, vatOperationsQuerySchema, writeVatOperationsCursor } from '../../src/shared/schemas/vat-operations';

const date = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const rate = fc.constantFrom(0, 2.1, 5.5, 8.5, 10, 13, 19.6, 20);

describe('the cursor of a page of a VAT line’s operations', () => {
  it('reads back what it wrote', () => {
    fc.assert(
      fc.property(
        date,
        fc.constantFrom('invoice' as const, 'credit' as const, 'expense' as const),
        fc.nat(2 ** 40),
        rate,
        (d, source, id, r) => {
          const cursor = { date: d, source, id, rate: r };
          expect(readVatOperationsCursor(writeVatOperationsCursor(cursor))).toEqual(cursor);
        },
      ),
    );
  });

  it('refuses anything else, in French', () => {
    for (const after of [
      '',
      'page-2',
      '2025-01-01_invoice_12',
      '2025-01-01_devis_12_20',
      '2025-01-01_invoice_-1_20',
      "2025-01-01_invoice_1_20' or 1=1",
    ]) {
      expect(readVatOperationsCursor(after), after).toBeNull();
      const parsed = vatOperationsQuerySchema.safeParse({ from: '2025-01-01', to: '2025-12-31', line: '08', after });
      expect(parsed.success, after).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('Suite : la valeur « next » d’une page précédente est attendue');
    }
  });
});
