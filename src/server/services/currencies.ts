import type { Db } from '../db/connection';
import type { CurrencyInput, CurrencyRateInput, EnabledCurrency } from '../../shared/schemas/currency';
import { findCurrency } from '../../shared/currencies';
import { RATE_DECIMALS } from '../../shared/exchange';
import { div, money, round, toDecimalString } from '../../shared/money';
import { fail } from '../errors';
import { getAppSettings } from './settings';
import {
  countCustomersUsingCurrency,
  deleteCurrency,
  findCurrencyRow,
  insertCurrency,
  listCurrencyRows,
  rateDayToday as today,
  updateCurrencyRate,
} from '../db/queries/currencies';
import { defined } from '../../shared/defined';
import { plural } from '../../shared/french';

const NOT_FOUND = 'Devise introuvable';

type Row = Awaited<ReturnType<typeof listCurrencyRows>>[number];

function enrich(row: Row, base: string): EnabledCurrency {
  const entry = findCurrency(row.code);
  return {
    id: row.id,
    code: row.code,
    name: entry?.name ?? row.code,
    symbol: entry?.symbol ?? row.code,
    symbol_native: entry?.symbol_native ?? row.code,
    decimal_digits: entry?.decimal_digits ?? 2,
    rate: row.rate,
    rate_date: row.rate_date,
    updated_at: row.updated_at,
    base: row.code === base,
  };
}

/**
 * The base currency (Paramètres → Système général) is always enabled at rate 1. It can change after rates were
 * typed: when the new base was enabled, every rate is restated against it (rate / its old rate, 6 decimals), so
 * '1 EUR = 1,085 USD' becomes '1 USD = 0,921659 EUR'; otherwise the new base joins at rate 1. Done on every call
 * rather than in the settings save, so no path that changes the base can leave the table inconsistent.
 */
async function syncBase(trx: Db, organizationId: number): Promise<string> {
  const base = (await getAppSettings(trx, organizationId)).currency_format.currency;
  const rows = await listCurrencyRows(trx, { organizationId });
  const current = rows.find((r) => r.code === base);
  if (!current) {
    await insertCurrency(trx, { organizationId, code: base, rate: '1', rateDate: today() });
  } else if (!money(current.rate).eq(1)) {
    const oldRate = current.rate;
    for (const row of rows) {
      const restated = row.id === current.id ? money(1) : round(div(row.rate, oldRate), RATE_DECIMALS);
      const rate = restated.gt(0) ? toDecimalString(restated) : toDecimalString(money(10).pow(-RATE_DECIMALS));
      await updateCurrencyRate(trx, { organizationId, id: row.id, rate, rateDate: row.rate_date });
    }
  }
  return base;
}

async function answer(trx: Db, organizationId: number, base: string, id: number): Promise<EnabledCurrency> {
  return enrich(defined(await findCurrencyRow(trx, { organizationId, id })), base);
}

/** A customer or a document may only use a currency enabled in Paramètres → Devises (it has a rate there). */
export async function assertCurrencyEnabled(db: Db, organizationId: number, code: string): Promise<void> {
  const enabled = await listCurrencies(db, organizationId);
  if (!enabled.some((c) => c.code === code))
    fail('BAD_REQUEST', `Devise : ${code} n’est pas activée, ajoutez-la d’abord dans Paramètres → Devises`);
}

/** The enabled currencies, the base first, then by code. */
export async function listCurrencies(db: Db, organizationId: number): Promise<EnabledCurrency[]> {
  return db.transaction().execute(async (trx) => {
    const base = await syncBase(trx, organizationId);
    const rows = (await listCurrencyRows(trx, { organizationId })).map((r) => enrich(r, base));
    return [...rows.filter((r) => r.base), ...rows.filter((r) => !r.base)];
  });
}

export async function createCurrency(db: Db, organizationId: number, input: CurrencyInput): Promise<EnabledCurrency> {
  return db.transaction().execute(async (trx) => {
    const base = await syncBase(trx, organizationId);
    const id = await insertCurrency(trx, { organizationId, code: input.code, rate: input.rate, rateDate: input.rate_date ?? today() });
    if (id === undefined) return fail('CONFLICT', `La devise ${input.code} est déjà activée`);
    return answer(trx, organizationId, base, id);
  });
}

export async function editCurrencyRate(db: Db, organizationId: number, id: number, input: CurrencyRateInput): Promise<EnabledCurrency> {
  return db.transaction().execute(async (trx) => {
    const base = await syncBase(trx, organizationId);
    const row = await findCurrencyRow(trx, { organizationId, id });
    if (!row) return fail('NOT_FOUND', NOT_FOUND);
    if (row.code === base) return fail('CONFLICT', `${base} est la devise de référence : son taux reste 1`);
    await updateCurrencyRate(trx, { organizationId, id, rate: input.rate, rateDate: input.rate_date ?? today() });
    return answer(trx, organizationId, base, id);
  });
}

/** A currency still set on live customers stays enabled, or their next documents would have no rate. */
export async function removeCurrency(db: Db, organizationId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const base = await syncBase(trx, organizationId);
    const row = await findCurrencyRow(trx, { organizationId, id });
    if (!row) return fail('NOT_FOUND', NOT_FOUND);
    if (row.code === base)
      return fail(
        'CONFLICT',
        `${base} est la devise de référence : elle ne peut pas être retirée (changez-la d’abord dans Système général)`,
      );
    const n = await countCustomersUsingCurrency(trx, { organizationId, code: row.code });
    if (n > 0) return fail('CONFLICT', `La devise ${row.code} est utilisée par ${plural(n, 'client')} : changez leur devise d’abord`);
    await deleteCurrency(trx, { organizationId, id });
  });
}
