import { sql, type RawBuilder } from 'kysely';

/** `lower(column) LIKE %text%` with the user's % and _ taken literally (escaped), on SQLite and PostgreSQL alike. */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
