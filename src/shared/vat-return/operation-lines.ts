import type { Ca3ItemLine } from './ca3-lines';

/**
 * The lines an operation is on; the others are totals of these (A1, 16, 17, 23…) or the user's own (22, 26). Kept
 * apart from their schema (schemas/vat-operations.ts): the statistics page names them, and its first load carries no zod.
 */
export const VAT_OPERATION_LINES = [
  'A3',
  'B2',
  'E1',
  'E2',
  'F2',
  '08',
  '9B',
  '09',
  'T6',
  'T',
  '19',
  '20',
] as const satisfies readonly Ca3ItemLine[];
export type VatOperationLine = (typeof VAT_OPERATION_LINES)[number];
