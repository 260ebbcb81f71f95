import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EnInvoice } from '../../../src/server/einvoice/en16931';
import { toCii } from '../../../src/server/einvoice/cii';
import { toUbl } from '../../../src/server/einvoice/ubl';
import { assertValidEinvoice } from '../../../src/server/einvoice/issue-check';
import { validateEinvoice } from '../../../src/server/einvoice/validate';
import { logger } from '../../../src/server/logger';
import { AppError } from '../../../src/server/errors';
import { closeHeavyWork } from '../../../src/server/workers/heavy-work';

const address = { line1: '12 rue des Lilas', line2: '', postalCode: '75011', city: 'Paris', subdivision: '', country: 'FR' };

/** A small valid invoice: 2 × 100.00 at 20 %, 200.00 HT, 40.00 VAT, 240.00 TTC. */
function model(): EnInvoice {
  const vat = { category: 'S' as const, rate: 200000n };
  return {
    billingFrame: 'S1',
    typeCode: '380',
    number: 'F-2026-0001',
    issueDate: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'EUR',
    precision: 2,
    notes: [{ subject: 'PMD', text: 'En cas de retard de paiement, pénalités au taux annuel de 12,00 % (C. com. L441-10)' }],
    preceding: [],
    seller: { name: 'Atelier Fontaine', legalId: { id: '552032534', scheme: '0002' }, vatNumber: 'FR27552032534', address },
    buyer: { name: 'Boulangerie Martin', legalId: { id: '732829320', scheme: '0002' }, address: { ...address, city: 'Lyon' } },
    lines: [{ id: '1', name: 'Pose', quantity: 20000n, unitCode: 'C62', price: 1000000n, allowance: 0n, net: 20000n, vat }],
    allowancesCharges: [],
    breakdown: [{ vat, taxable: 20000n, amount: 4000n }],
    totals: {
      lines: 20000n,
      allowances: 0n,
      charges: 0n,
      taxExclusive: 20000n,
      tax: 4000n,
      taxInclusive: 24000n,
      prepaid: 0n,
      payable: 24000n,
    },
  };
}

beforeAll(async () => {
  // Loads the validator once (about a second) in its worker thread and here, outside the measured calls.
  await Promise.all([assertValidEinvoice(toCii(model()), 'F-2026-0001'), validateEinvoice(toCii(model()), 'cii')]);
}, 120_000);
afterEach(() => vi.restoreAllMocks());
afterAll(() => closeHeavyWork());

describe('validation at issue time', () => {
  it('lets a valid invoice through, in CII and in UBL', async () => {
    await expect(assertValidEinvoice(toCii(model()), 'F-2026-0001')).resolves.toBeUndefined();
    expect((await validateEinvoice(toUbl(model()), 'ubl')).ok).toBe(true);
  });

  it('refuses an invoice whose totals do not add up, naming the rule ids in French, and logs them', async () => {
    const log = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const broken = model();
    broken.totals.taxInclusive = 24001n; // BT-112 ≠ BT-109 + BT-110
    broken.totals.payable = 24001n;
    const refusal = await assertValidEinvoice(toCii(broken), 'F-2026-0001').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    const error = refusal as AppError;
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toMatch(/^Émission refusée : la facture électronique \(CII EN 16931\) de ce document ne serait pas conforme\./);
    expect(error.message).toContain('BR-CO-15');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toBe('EN 16931 validation refused the issue of F-2026-0001');
    expect(String(log.mock.calls[0]?.[1])).toContain('BR-CO-15');
  });

  it('refuses a VAT breakdown that contradicts its rate, and a missing seller identifier', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => {});
    const wrongVat = model();
    wrongVat.breakdown = [{ vat: { category: 'S', rate: 200000n }, taxable: 20000n, amount: 3000n }];
    wrongVat.totals.tax = 3000n;
    wrongVat.totals.taxInclusive = 23000n;
    wrongVat.totals.payable = 23000n;
    await expect(assertValidEinvoice(toCii(wrongVat), 'F-2026-0002')).rejects.toThrow(/BR-S-09/);
    const noVatNumber = model();
    noVatNumber.seller = { ...noVatNumber.seller, vatNumber: undefined };
    await expect(assertValidEinvoice(toCii(noVatNumber), 'F-2026-0003')).rejects.toThrow(/BR-S-02/);
  });

  it('costs little once warm: generation and validation of a CII, measured', async () => {
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await assertValidEinvoice(toCii(model()), 'F-2026-0001');
    const perInvoice = (performance.now() - started) / runs;
    console.info(`CII serialisation + XSD + EN 16931 rules, warm: ${perInvoice.toFixed(1)} ms per invoice`);
    expect(perInvoice).toBeLessThan(2000);
  });
});
