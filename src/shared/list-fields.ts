// The values a list's address may carry (its period, its sort), without Zod: the data a page needs is asked for from
// them at navigation (client/route-data.ts), before the schemas' code has downloaded.

export const PERIODS = ['this_month', 'last_month', 'this_quarter', 'this_year', 'last_year', 'custom'] as const;
export const SORT_FIELDS = ['date', 'number', 'customer', 'total', 'maturity'] as const;
export const EXPENSE_SORT_FIELDS = ['date', 'supplier', 'category', 'amount'] as const;
