import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../connection';
import type { SqliteDataGeneration } from '../data-generation';
import type { Database } from '../schema';

/** The documents a list's filters select, before any column: counted here, with the generation on PostgreSQL. */
export type FilteredDocuments = SelectQueryBuilder<Database, 'documents', object>;

/** The documents list's counts kept between requests, by whichever database's means (see each class). */
export interface KeptCounts {
  /** How many documents of this organisation the filters select, counted now or kept from a count still true. */
  count(organizationId: number, filtered: FilteredDocuments): Promise<number>;
}

const countOf = (filtered: FilteredDocuments) => filtered.select((eb) => eb.fn.countAll<number>().as('total'));

/** A filter's key: its count's SQL and parameters (the organisation, today's date for `overdue`, the search's ids…). */
function keyOf(filtered: FilteredDocuments): string {
  const { sql: text, parameters } = countOf(filtered).compile();
  // A search's rowid range is bound as BigInt (64-bit), which JSON cannot write as it is.
  return `${text}\n${JSON.stringify(parameters, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value))}`;
}

/** Filters are typed by people: a bounded map, emptied whole when full (recounting is always correct). */
const MAX_KEPT = 5000;

/**
 * The documents list's counts on SQLite, kept between requests: at 100 000 documents counting a filter walks tens of
 * thousands of index entries on every full page (`npm run bench -- scale`), for a number that changes only when data is
 * written. A count is reused while its organisation's data generation (db/data-generation.ts) is the one it was read at. A
 * transaction's handle is never cached (documentCountsOf answers null).
 */
export class DocumentCounts implements KeptCounts {
  private readonly counts = new Map<string, { generation: number; total: number }>();

  constructor(private readonly data: SqliteDataGeneration) {}

  count(organizationId: number, filtered: FilteredDocuments): Promise<number> {
    return this.read(organizationId, keyOf(filtered), async () => Number((await countOf(filtered).executeTakeFirstOrThrow()).total));
  }

  /** The count stored under this key (the filter's SQL and parameters, the organisation among them), or the one `count` reads, then kept. */
  async read(organizationId: number, key: string, count: () => Promise<number>): Promise<number> {
    const generation = this.data.current(organizationId);
    const kept = this.counts.get(key);
    if (kept && kept.generation === generation) return kept.total;
    const total = await count();
    if (this.counts.size >= MAX_KEPT) this.counts.clear();
    if (this.data.unchangedSince(organizationId, generation)) this.counts.set(key, { generation, total });
    return total;
  }
}

/**
 * PostgreSQL's kept counts, right with several processes writing: every transaction that writes an organisation's
 * documents bumps its row of `document_generations`, by a trigger in that same transaction (migration 0042), so no
 * writer can forget it. A count is read in one statement with the generation, both from the same snapshot: the total
 * is true exactly as long as the generation stays the same, which each later request checks by its primary key
 * before reusing it. Process memory holds only (generation, total) per filter; a write of any process makes every
 * count of that organisation read again.
 */
export class PostgresDocumentCounts implements KeptCounts {
  private readonly counts = new Map<string, { generation: number; total: number }>();

  constructor(private readonly db: Db) {}

  async count(organizationId: number, filtered: FilteredDocuments): Promise<number> {
    const key = keyOf(filtered);
    const kept = this.counts.get(key);
    if (kept && kept.generation === (await this.generation(organizationId))) return kept.total;
    // One statement, so one snapshot for both (READ COMMITTED takes one per statement, its subqueries included).
    const row = await filtered
      .select((eb) => [eb.fn.countAll<number>().as('total'), generationOf(organizationId).as('generation')])
      .executeTakeFirstOrThrow();
    if (this.counts.size >= MAX_KEPT) this.counts.clear();
    this.counts.set(key, { generation: Number(row.generation), total: Number(row.total) });
    return Number(row.total);
  }

  private async generation(organizationId: number): Promise<number> {
    const { rows } = await sql<{ generation: number }>`select ${generationOf(organizationId)} as generation`.execute(this.db);
    return Number(rows[0]?.generation);
  }
}

/** An organisation's generation; 0 before its first write since migration 0042 (no row yet). */
const generationOf = (organizationId: number) =>
  sql<number>`coalesce((select generation from document_generations where organization_id = ${organizationId}), 0)`;

const registry = new WeakMap<Db, KeptCounts>();

export function keepDocumentCounts(db: Db, counts: KeptCounts): void {
  registry.set(db, counts);
}

/** The counts kept for this handle; null for a transaction or a handle opened without them (count every time). */
export function documentCountsOf(db: Db): KeptCounts | null {
  return registry.get(db) ?? null;
}
