import type { Kysely } from 'kysely';

/**
 * Paramètres → Appareils: each session remembers the browser it was opened from (User-Agent, parsed
 * when shown), the address, and when it was last used (refreshed at most every few minutes, not on every request).
 * Sessions opened before this migration have none of these: they show as an unknown browser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['last_seen_at', 'ip', 'user_agent']) await db.schema.alterTable('sessions').dropColumn(column).execute();
}
