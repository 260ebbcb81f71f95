import { toCii } from '../../src/server/einvoice/cii';
import type { EnInvoice } from '../../src/server/einvoice/en16931';
import { line } from './documents';

/**
 * Heavy inputs of the tests and the bench: a draft's lines, and a supplier's valid EN 16931 CII (its totals add up)
 * of a given size, each line 1 × 100.00 € at 20 %.
 */

export const manyLines = (count: number) =>
  Array.from({ length: count }, (_, i) => line(`Prestation ${i + 1} : intervention sur site, pièces et main-d’œuvre`, 1, 100));

const address = { line1: '12 rue des Lilas', line2: '', postalCode: '75011', city: 'Paris', subdivision: '', country: 'FR' };

function supplierInvoice(lineCount: number, number: string): EnInvoice {
  const vat = { category: 'S' as const, rate: 200000n };
  const n = BigInt(lineCount);
  return {
    billingFrame: 'B1',
    typeCode: '380',
    number,
    issueDate: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'EUR',
    precision: 2,
    notes: [{ subject: 'PMD', text: 'En cas de retard de paiement, pénalités au taux annuel de 12,00 % (C. com. L441-10)' }],
    preceding: [],
    seller: { name: 'Fournitures Durand', legalId: { id: '552032534', scheme: '0002' }, vatNumber: 'FR27552032534', address },
    buyer: { name: 'Boulangerie Martin', legalId: { id: '732829320', scheme: '0002' }, address: { ...address, city: 'Lyon' } },
    lines: Array.from({ length: lineCount }, (_, i) => ({
      id: String(i + 1),
      name: `Fourniture ${i + 1} : consommables d’atelier, lot standard`,
      quantity: 10000n,
      unitCode: 'C62',
      price: 1000000n,
      allowance: 0n,
      net: 10000n,
      vat,
    })),
    allowancesCharges: [],
    breakdown: [{ vat, taxable: 10000n * n, amount: 2000n * n }],
    totals: {
      lines: 10000n * n,
      allowances: 0n,
      charges: 0n,
      taxExclusive: 10000n * n,
      tax: 2000n * n,
      taxInclusive: 12000n * n,
      prepaid: 0n,
      payable: 12000n * n,
    },
  };
}

/** A supplier's CII of about `bytes` bytes (as many lines as fit), with its line count. */
export function largeSupplierCii(bytes: number, number = 'FD-2026-0001'): { xml: Buffer; lines: number } {
  const perLine = (toCii(supplierInvoice(101, number)).length - toCii(supplierInvoice(1, number)).length) / 100;
  const base = toCii(supplierInvoice(0, number)).length;
  const lines = Math.floor((bytes - base) / perLine);
  return { xml: Buffer.from(toCii(supplierInvoice(lines, number))), lines };
}
