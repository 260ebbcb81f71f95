/**
 * Whether an expense is paid. Kept apart from its schema (schemas/expense.ts, which re-exports them): the expenses list
 * names them in its filter and its rows, and its first load carries no zod.
 */
export const EXPENSE_STATUSES = ['paid', 'unpaid'] as const;
export type ExpenseStatus = (typeof EXPENSE_STATUSES)[number];
export const EXPENSE_STATUS_LABELS: Record<ExpenseStatus, string> = { paid: 'Payée', unpaid: 'À payer' };
