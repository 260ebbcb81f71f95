import type { MigrationDb } from './helpers';

import { withId } from './helpers';

// MigrationDb: a migration describes the database as it was at its time.
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('currencies'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    // Decimal as text ('1.085'): a rate is exact, never a binary float.
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('rate_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('currencies_org_code_unique', ['organization_id', 'code'])
    .execute();

  // Organisations registered before this migration start, like new ones, with their base currency at rate 1.
  const now = new Date().toISOString();
  const organizations = await db.selectFrom('organizations').select('id').execute();
  for (const { id } of organizations) {
    const setting = await db
      .selectFrom('settings')
      .select('value')
      .where('organization_id', '=', id)
      .where('key', '=', 'app')
      .executeTakeFirst();
    await db
      .insertInto('currencies')
      .values({
        organization_id: id,
        code: baseCurrencyOf(setting?.value),
        rate: '1',
        rate_date: now.slice(0, 10),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/** Frozen reading of the settings JSON of the time: currency_format.currency, EUR when absent or unreadable. */
function baseCurrencyOf(value: unknown): string {
  try {
    const code = (JSON.parse(typeof value === 'string' ? value : '{}') as { currency_format?: { currency?: unknown } }).currency_format
      ?.currency;
    return typeof code === 'string' && /^[A-Z]{3}$/.test(code) ? code : 'EUR';
  } catch {
    return 'EUR';
  }
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('currencies').execute();
}
