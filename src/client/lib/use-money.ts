import { useCallback } from 'react';
import { DEFAULT_CURRENCY_FORMAT, formatMoney } from '../../shared/format';
import type { MoneyInput } from '../../shared/money';
import { trpc } from '../trpc';

/** Money as the organisation's currency_format says (the guard has loaded the settings already). */
export function useMoney(): (amount: MoneyInput, currency?: string) => string {
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: Infinity });
  const format = settings.data && 'currency_format' in settings.data ? settings.data.currency_format : DEFAULT_CURRENCY_FORMAT;
  return useCallback((amount: MoneyInput, currency?: string) => formatMoney(amount, format, currency), [format]);
}
