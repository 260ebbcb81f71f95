// A page of the operations behind a line of the VAT return (services/vat-operations.ts) on a large organisation:
// `npx tsx scripts/bench/vat-operations.ts <copy of a scale bench database>`. The file is migrated and its VAT ledger
// built in place: give it a copy, never the bench's cache. Prints the first, a middle and the last page of line 08 over
// the whole history and over the current year, each the median and slowest of 30 calls, and SQLite's plan of a page.
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { startBuiltServer } from './built-server';
import { refreshVatLedger } from '../../src/server/services/vat-ledger';
import { vatOperationsPage } from '../../src/server/services/vat-operations';
import { writeVatOperationsCursor } from '../../src/shared/schemas/vat-operations';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx scripts/bench/vat-operations.ts <copy of a scale database>');
const RUNS = 30;

const connection = openDatabase(file);
const { db } = connection;
const timed = async <T>(run: () => Promise<T>) => {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
};

const migrated = await timed(() => migrateToLatest(db));
console.log(`migrations ${migrated.value.join(', ') || 'none'}: ${migrated.ms.toFixed(0)} ms`);
const organization = await db
  .selectFrom('organizations')
  .select('id')
  .where('name', '=', 'Atelier Fontaine SARL')
  .executeTakeFirstOrThrow();
const organizationId = organization.id;
const built = await timed(() => refreshVatLedger(db, organizationId));
console.log(`ledger brought up to date: ${built.ms.toFixed(0)} ms`);
const counts = await db
  .selectFrom('vat_ledger')
  .select(['organization_id', 'line', sql<number>`count(*)`.as('n')])
  .groupBy(['organization_id', 'line'])
  .execute();
console.log(`ledger rows: ${counts.map((c) => `org ${c.organization_id} ${c.line} ${c.n}`).join(', ')}`);
const documents = await db.selectFrom('documents').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
console.log(`documents in the file: ${documents.n}`);

const span = await db
  .selectFrom('vat_ledger')
  .select([sql<string>`min(date)`.as('first'), sql<string>`max(date)`.as('last')])
  .where('organization_id', '=', organizationId)
  .executeTakeFirstOrThrow();
const periods = [
  { name: 'whole history', from: span.first, to: span.last },
  { name: 'current year', from: `${span.last.slice(0, 4)}-01-01`, to: span.last },
];

for (const period of periods) {
  const line = '08';
  const rows = await db
    .selectFrom('vat_ledger')
    .select(sql<number>`count(*)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('line', '=', line)
    .where('date', '>=', period.from)
    .where('date', '<=', period.to)
    .executeTakeFirstOrThrow();
  // A cursor in the middle and near the end, found once (not timed) the way a reader would reach them.
  const at = async (offset: number) => {
    const row = await db
      .selectFrom('vat_ledger')
      .select(['date', 'source', 'item_id', 'rate'])
      .where('organization_id', '=', organizationId)
      .where('line', '=', line)
      .where('date', '>=', period.from)
      .where('date', '<=', period.to)
      .groupBy(['date', 'source', 'item_id', 'rate'])
      .orderBy('date')
      .orderBy('source')
      .orderBy('item_id')
      .orderBy('rate')
      .offset(Math.max(0, offset))
      .limit(1)
      .executeTakeFirstOrThrow();
    return writeVatOperationsCursor({ date: row.date, source: row.source, id: row.item_id, rate: Number(row.rate) });
  };
  const n = Number(rows.n);
  const cursors = { first: undefined, middle: await at(Math.floor(n / 2)), last: await at(n - 60) };
  console.log(`\n${period.name} ${period.from} → ${period.to}: ${n} ledger rows on line ${line}`);
  for (const [name, after] of Object.entries(cursors)) {
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const { value, ms } = await timed(() =>
        vatOperationsPage(db, organizationId, { ...period, line, per_page: 50, ...(after ? { after } : {}) }),
      );
      times.push(ms);
      size = value.data.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(6)} page (${size} operations): median ${times[Math.floor(RUNS / 2)]?.toFixed(2)} ms, slowest ${times.at(-1)?.toFixed(2)} ms`,
    );
  }
}

// SQLite's plan of a page's statement (the statement of db/queries/vat-ledger.ts vatLedgerLinePage, after a cursor).
const compiled = (() => {
  const q = db
    .selectFrom('vat_ledger')
    .select(['date', 'source', 'item_id', 'rate', sql<number>`sum(base)`.as('base'), sql<number>`sum(tax)`.as('tax')])
    .where('organization_id', '=', organizationId)
    .where('line', '=', '08')
    .where('date', '>=', '2025-01-01')
    .where('date', '<=', periods[0]?.to ?? '')
    .where((eb) => eb(eb.refTuple('date', 'source', 'item_id', 'rate'), '>', eb.tuple('2025-01-01', 'invoice' as const, 1, 20)))
    .groupBy(['date', 'source', 'item_id', 'rate'])
    .orderBy('date')
    .orderBy('source')
    .orderBy('item_id')
    .orderBy('rate')
    .limit(51);
  return q.compile();
})();
const raw = connection.sqlite;
if (raw) {
  const plan = raw.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])) as { detail: string }[];
  console.log(`\nplan of a page: ${plan.map((p) => p.detail).join(' | ')}`);
}
await connection.close();

// The same pages through the REST door of the built server (on its own copy of the file), signed in as the bench's user.
if (process.argv.includes('--http')) {
  const server = await startBuiltServer({ database: file });
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench-scale@exemple.fr', password: 'bench-password' }),
    });
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const period = periods[0] ?? { from: '', to: '' };
    const base = `${server.url}/api/reports/vat/operations?from=${period.from}&to=${period.to}&line=08&per_page=50`;
    let after: string | null = null;
    const times: number[] = [];
    // 200 pages in a row, following `next`: the first 10,000 operations of the line.
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      const answer = await fetch(after ? `${base}&after=${encodeURIComponent(after)}` : base, { headers: { cookie } });
      const page = (await answer.json()) as { next: string | null; data: unknown[] };
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
      after = page.next;
      if (after === null) break;
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(2);
    console.log(
      `\nREST, ${times.length} pages following next (first: ${times[0]?.toFixed(2)} ms): median ${at(0.5)} ms, p95 ${at(0.95)} ms, slowest ${at(1)} ms`,
    );
  } finally {
    await server.stop();
  }
}
