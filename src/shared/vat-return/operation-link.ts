/**
 * Where an operation behind a line of the VAT return is read in the app: its invoice or credit note, or the expenses
 * of its supplier (an expense has no page of its own). One rule for the return's items and the paged operations.
 */
export function operationLink(operation: { source: 'invoice' | 'credit' | 'expense'; id: number; party: string }): string {
  if (operation.source === 'invoice') return `/invoices/${operation.id}/view`;
  if (operation.source === 'credit') return `/credits/${operation.id}/view`;
  return `/expenses?search=${encodeURIComponent(operation.party)}`;
}
