import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { customerFiguresSchema, customerSchema } from '../../src/shared/schemas/customer';
import type { itemSchema } from '../../src/shared/schemas/item';
import type { tagSchema } from '../../src/shared/schemas/tag';
import type { taxSchema, unitSchema } from '../../src/shared/schemas/reference';
import type { dashboardSchema } from '../../src/shared/schemas/figures';
import type { searchResultsSchema } from '../../src/shared/schemas/search';
import type { organizationProfileSchema } from '../../src/shared/schemas/organization';
import type { csvFileSchema, csvImportReportSchema } from '../../src/shared/schemas/answers';
import type { enabledCurrencySchema } from '../../src/shared/schemas/currency';
import type { getCustomer } from '../../src/server/services/customers';
import type { getItem } from '../../src/server/services/items';
import type { listTags } from '../../src/server/db/queries/tags';
import type { listTaxes, listUnits } from '../../src/server/db/queries/reference';
import type { customerFigures, dashboardFigures } from '../../src/server/services/figures';
import type { searchEntries } from '../../src/server/db/queries/search';
import type { getOrganizationProfile } from '../../src/server/services/organization';
import type { CsvRowReport } from '../../src/server/services/csv-table';
import type { exportCustomers } from '../../src/server/services/customer-csv';
import type { listCurrencies } from '../../src/server/services/currencies';

/**
 * Output validation strips the keys a schema does not name: an `.output()` that forgets a field loses it from every
 * answer, silently. These compile-time checks name, for each answer, the fields the service returns that its schema
 * lacks (at any depth); `tsc --noEmit` fails while one is missing.
 */
type Missing<Returned, Schema> = Returned extends readonly (infer R)[]
  ? Schema extends readonly (infer S)[]
    ? Missing<R, S>
    : 'an array answered where the schema has none'
  : Returned extends object
    ? { [K in keyof Returned]-?: K extends keyof NonNullable<Schema> ? Missing<Returned[K], NonNullable<Schema>[K]> : K }[keyof Returned]
    : never;
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Covers<Returned, S extends z.ZodType> = [Missing<Returned, z.output<S>>] extends [never] ? true : Missing<Returned, z.output<S>>;

const checks: true[] = [
  true satisfies Covers<Answer<typeof getCustomer>, typeof customerSchema>,
  true satisfies Covers<Answer<typeof getItem>, typeof itemSchema>,
  true satisfies Covers<Answer<typeof listTags>[number], typeof tagSchema>,
  true satisfies Covers<Answer<typeof listTaxes>[number], typeof taxSchema>,
  true satisfies Covers<Answer<typeof listUnits>[number], typeof unitSchema>,
  true satisfies Covers<Answer<typeof dashboardFigures>, typeof dashboardSchema>,
  true satisfies Covers<{ total: number; data: Answer<typeof customerFigures> }, typeof customerFiguresSchema>,
  true satisfies Covers<{ total: number; data: Answer<typeof searchEntries> }, typeof searchResultsSchema>,
  true satisfies Covers<Answer<typeof getOrganizationProfile>, typeof organizationProfileSchema>,
  true satisfies Covers<CsvRowReport, typeof csvImportReportSchema>,
  true satisfies Covers<Answer<typeof exportCustomers>, typeof csvFileSchema>,
  true satisfies Covers<Answer<typeof listCurrencies>[number], typeof enabledCurrencySchema>,
];

describe('output schemas', () => {
  it('name every field the services answer (checked by the compiler)', () => {
    expect(checks.every(Boolean)).toBe(true);
  });
});
