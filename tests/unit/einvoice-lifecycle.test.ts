import { describe, expect, it } from 'vitest';
import {
  LIFECYCLE_STATUSES,
  lifecycleConflict,
  lifecycleState,
  statusOfCode,
  type LifecycleSource,
  type LifecycleStatus,
} from '../../src/shared/einvoice-lifecycle';
import { lifecycleInputSchema } from '../../src/shared/schemas/einvoice-lifecycle';

const history = (...entries: [LifecycleStatus, LifecycleSource?][]) =>
  lifecycleState(entries.map(([status, source]) => ({ status, source: source ?? 'platform' })));
const conflict = (next: LifecycleStatus, ...entries: [LifecycleStatus, LifecycleSource?][]) =>
  lifecycleConflict(history(...entries), next, 'invoice');

describe('lifecycle statuses of the reform', () => {
  it('has the four mandatory statuses with their platform codes', () => {
    const mandatory = Object.entries(LIFECYCLE_STATUSES).filter(([, s]) => s.mandatory);
    expect(mandatory.map(([key, s]) => [key, s.code, s.label])).toEqual([
      ['deposited', 200, 'Déposée'],
      ['refused', 210, 'Refusée'],
      ['cashed', 212, 'Encaissée'],
      ['rejected', 213, 'Rejetée'],
    ]);
    expect(statusOfCode(207)).toBe('disputed');
    expect(statusOfCode(999)).toBeUndefined();
  });

  it('allows the usual path: déposée, mise à disposition, approuvée, encaissée', () => {
    expect(conflict('deposited')).toBeNull();
    expect(conflict('made_available', ['deposited'])).toBeNull();
    expect(conflict('approved', ['deposited'], ['made_available'])).toBeNull();
    expect(conflict('cashed', ['deposited'], ['made_available'], ['approved'])).toBeNull();
  });

  it('a refused invoice cannot be cashed, nor change status again', () => {
    expect(conflict('cashed', ['deposited'], ['refused'])).toBe('Une facture refusée par le client ne peut pas être encaissée');
    expect(conflict('approved', ['deposited'], ['refused'])).toMatch(/refusée par le client : son statut ne change plus/);
  });

  it('a rejected invoice is closed: nothing follows it', () => {
    for (const next of ['deposited', 'cashed', 'refused'] as const)
      expect(conflict(next, ['deposited'], ['rejected'])).toMatch(/rejetée par la plateforme/);
  });

  it('a cashed invoice can be neither rejected nor refused, nor cashed twice', () => {
    expect(conflict('refused', ['deposited'], ['cashed'])).toBe('Une facture encaissée ne peut plus être refusée');
    expect(conflict('rejected', ['cashed'])).toBe('Une facture encaissée ne peut plus être rejetée');
    expect(conflict('cashed', ['cashed'])).toBe('La facture est déjà encaissée');
  });

  it('the platform cannot reject an invoice the customer already has', () => {
    expect(conflict('rejected', ['deposited'])).toBeNull();
    expect(conflict('rejected', ['deposited'], ['made_available'])).toBe(
      'La plateforme ne peut plus rejeter une facture déjà mise à disposition du client',
    );
  });

  it('deposited once; a withdrawal needs a cashed status, and after it the invoice may be cashed again', () => {
    expect(conflict('deposited', ['deposited'])).toBe('La facture est déjà déposée sur la plateforme');
    expect(conflict('cash_withdrawn', ['deposited'])).toMatch(/pas encaissée/);
    expect(conflict('cashed', ['cashed', 'automatic'], ['cash_withdrawn', 'automatic'])).toBeNull();
    expect(history(['cashed', 'automatic'])).toMatchObject({ cashed: true, cashedBy: 'automatic' });
    expect(history(['cashed', 'user'], ['cash_withdrawn'])).toMatchObject({ cashed: false, cashedBy: null });
  });

  it('a credit note is not cashed', () => {
    expect(lifecycleConflict(history(), 'cashed', 'credit')).toBe('Un avoir ne s’encaisse pas : seules les factures sont encaissées');
    expect(lifecycleConflict(history(), 'deposited', 'credit')).toBeNull();
  });

  it('a manual refusal needs its reason; platform-only statuses are not typed by hand', () => {
    const refusal = lifecycleInputSchema.safeParse({ status: 'refused' });
    expect(refusal.success).toBe(false);
    expect(refusal.error?.issues[0]?.message).toBe('Motif : obligatoire pour le statut « Refusée »');
    expect(lifecycleInputSchema.safeParse({ status: 'refused', reason: 'Prestation non conforme' }).success).toBe(true);
    expect(lifecycleInputSchema.safeParse({ status: 'made_available' }).success).toBe(false);
  });
});
