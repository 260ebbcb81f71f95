import type { Db } from '../db/connection';
import { fail } from '../errors';
import { listCurrencyRows } from '../db/queries/currencies';
import { convertAmount } from '../../shared/exchange';
import { INPUT_SCALE, money, unitsToDecimalText, type Money } from '../../shared/money';
import { getAppSettings } from './settings';

/**
 * Sums of one currency and rate of issue, to the base currency. A document issued before rates were kept and whose
 * currency is no longer enabled has none: today's rate is the only one left, and without it the report says so.
 */
export async function converter(db: Db, organizationId: number) {
  const base = (await getAppSettings(db, organizationId)).currency_format.currency;
  let current: Map<string, string> | undefined;
  const currentRate = async (code: string) => {
    current ??= new Map((await listCurrencyRows(db, { organizationId })).map((r) => [r.code, r.rate]));
    const rate = current.get(code);
    if (rate === undefined)
      fail('CONFLICT', `Devise ${code} : aucun taux de change vers ${base}, ajoutez-la dans Paramètres → Devises pour les statistiques`);
    return rate;
  };
  /** Units of `currency` per unit of the base currency a document is converted at: its rate of issue, else today's. */
  const rateOf = async (row: { currency: string; rate: string | null }): Promise<string> =>
    row.currency === base ? '1' : (row.rate ?? (await currentRate(row.currency)));
  /** Stored units (scale 4) of `currency` to an exact amount of the base currency, rounded to its cents. */
  const toBase = async (units: number | bigint, row: { currency: string; rate: string | null }): Promise<Money> => {
    const amount = unitsToDecimalText(BigInt(units ?? 0), INPUT_SCALE);
    if (row.currency === base) return money(amount);
    return convertAmount(amount, { code: row.currency, rate: await rateOf(row) }, { code: base, rate: '1' });
  };
  return { base, toBase, rateOf };
}
