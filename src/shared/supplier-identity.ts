/**
 * Who a supplier is, from what an expense keeps of it: its SIREN, its VAT number (or foreign tax id) and its name. One
 * rule for telling two invoices of the same supplier apart from two suppliers' (an invoice imported twice) and for the
 * supplier's auxiliary account in the FEC.
 */

export type SupplierIdentity = { siren: string; vatNumber: string; name: string };

const compact = (text: string) => text.replace(/[\s.\-/]/g, '').toUpperCase();

/** A name as a key: accents, case, punctuation and legal-form noise do not make another supplier. */
export function supplierNameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .replace(/\b(SAS|SASU|SARL|EURL|SA|SNC|EI|BV|B V|GMBH|AS|ASA|AB|LTD|LIMITED|INC|SRL|SPA|NV)\b/g, ' ')
    .replace(/\s+/g, '')
    .trim();
}

/**
 * Whether two records name the same supplier: the same SIREN or the same VAT number when both carry one, else the same
 * name. Two different SIRENs are two suppliers even under one name (a group's subsidiaries).
 */
export function sameSupplier(a: SupplierIdentity, b: SupplierIdentity): boolean {
  const sirenA = a.siren.replace(/\D/g, '').slice(0, 9);
  const sirenB = b.siren.replace(/\D/g, '').slice(0, 9);
  if (sirenA && sirenB) return sirenA === sirenB;
  const vatA = compact(a.vatNumber);
  const vatB = compact(b.vatNumber);
  if (vatA && vatB) return vatA === vatB;
  const nameA = supplierNameKey(a.name);
  return nameA !== '' && nameA === supplierNameKey(b.name);
}

/**
 * The supplier's auxiliary account number (CompAuxNum, under 401): F then its SIREN, else its VAT number, else its
 * name's letters, so that every invoice of one supplier lands on one account. Letters and digits only, 20 at most.
 */
export function supplierAccountNumber(supplier: SupplierIdentity): string {
  const siren = supplier.siren.replace(/\D/g, '').slice(0, 9);
  const key = siren || compact(supplier.vatNumber).replace(/[^A-Z0-9]/g, '') || supplierNameKey(supplier.name) || 'DIVERS';
  return `F${key}`.slice(0, 20);
}
