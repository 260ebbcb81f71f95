// `npx tsx scripts/bench/cold-figures.ts <database file> [documents]`: the figures a write makes stale, timed in process
// right after a write (so that nothing kept answers): the dashboard, the VAT report of last year, the receivables, the
// turnover of three years and the documents list's first page with its count (unfiltered and overdue invoices). The
// file is seeded once (one organisation, rows shaped as the issue service stores them, scripts/bench/reports.ts) and
// reused; the code that reads it is this checkout's, so the same file measures two versions of the code.
import fs from 'node:fs';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { createCurrency } from '../../src/server/services/currencies';
import { dashboardFigures } from '../../src/server/services/figures';
import { receivablesReport, turnoverReport } from '../../src/server/services/reports';
import { vatReport } from '../../src/server/services/vat-return';
import { vatReportFromLedger } from '../../src/server/services/vat-report';
import { refreshVatLedger } from '../../src/server/services/vat-ledger';
import { listDocuments } from '../../src/server/db/queries/document-lists';
import { todayIso } from '../../src/server/services/document-record';
import { seedDirectly } from './reports';

const file = process.argv[2] ?? '';
const documents = Number(process.argv[3] ?? 100_000);
if (!file) throw new Error('usage: cold-figures.ts <database file> [documents]');
const RUNS = Number(process.env.RUNS ?? 7);
/** Figures left out, by a word of their title (`SKIP=VAT`): the VAT report lists every document of the year. */
const SKIP = process.env.SKIP;

async function seeded(): Promise<number> {
  const fresh = !fs.existsSync(file);
  const connection = openDatabase(file);
  try {
    const started = performance.now();
    const applied = await migrateToLatest(connection.db);
    const migrated = performance.now() - started;
    if (!fresh) {
      if (applied.length) console.log(`migrations ${applied.join(', ')} on the seeded file: ${(migrated / 1000).toFixed(1)} s`);
      const row = await connection.db.selectFrom('organizations').select('id').orderBy('id').executeTakeFirstOrThrow();
      return Number(row.id);
    }
    const now = new Date().toISOString();
    const { rows } = await sql<{ id: number }>`insert into organizations (name, created_at, updated_at)
      values ('Atelier Fontaine SARL', ${now}, ${now}) returning id`.execute(connection.db);
    const organizationId = Number(rows[0]?.id);
    await createCurrency(connection.db, organizationId, { code: 'USD', rate: '1.085' } as never);
    await connection.close();
    const seed = await seedDirectly(file, organizationId, documents);
    console.log(`seeded ${documents} documents in ${(seed.ms / 1000).toFixed(0)} s`);
    return organizationId;
  } finally {
    await connection.close().catch(() => {});
  }
}

const organizationId = await seeded();
const connection = openDatabase(file);
const db: Db = connection.db;
const today = todayIso();
const year = Number(today.slice(0, 4));
const lastYear = { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
const list = (extra: Record<string, string>) => () =>
  listDocuments(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 10, ...extra });
const figures: [string, () => Promise<unknown>, (() => Promise<void>)?][] = [
  ['dashboard', () => dashboardFigures(db, organizationId)],
  // Read from the VAT ledger (migration 0069); the engine over every document of the year, as the report was before.
  ['report: VAT, a year', () => vatReportFromLedger(db, organizationId, lastYear)],
  ['report: VAT, a year, after a payment recorded or reversed', () => vatReportFromLedger(db, organizationId, lastYear), () => pay()],
  ['report: VAT, a year, by the engine (before the ledger)', () => vatReport(db, organizationId, lastYear)],
  ['report: receivables', () => receivablesReport(db, organizationId)],
  [
    'report: turnover, 3 years by quarter',
    () => turnoverReport(db, organizationId, { from: `${year - 2}-01-01`, to: `${year}-12-31`, group: 'quarter' }),
  ],
  ['documents: first page + count', list({})],
  ['documents: overdue invoices + count', list({ type: 'invoice', status: 'overdue' })],
];

// The write before each figure: an unpaid invoice paid in part, then back (what a payment does to a document's row).
const unpaid = await db
  .selectFrom('documents')
  .select(['id', 'amount_due'])
  .where('organization_id', '=', organizationId)
  .where('status', '=', 'unpaid')
  .orderBy('id', 'desc')
  .executeTakeFirstOrThrow();
let flip = false;
const writes: number[] = [];
async function write() {
  flip = !flip;
  const started = performance.now();
  await db
    .updateTable('documents')
    .set(
      flip
        ? { status: 'partial', paid: 100, amount_due: Number(unpaid.amount_due) - 100 }
        : { status: 'unpaid', paid: 0, amount_due: unpaid.amount_due },
    )
    .where('id', '=', unpaid.id)
    .execute();
  writes.push(performance.now() - started);
}

// A write the VAT depends on: a payment row of that invoice added, then removed (the ledger recomputes the invoice).
let paymentId: number | null = null;
async function pay() {
  const started = performance.now();
  if (paymentId === null) {
    const row = await db
      .insertInto('payments')
      .values({
        organization_id: organizationId,
        document_id: unpaid.id,
        date: lastYear.to,
        amount: 100,
        method: 'transfer',
        reference: '',
        note: '',
        reverses_id: null,
        created_at: today,
        updated_at: today,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    paymentId = Number(row.id);
  } else {
    await db.deleteFrom('payments').where('id', '=', paymentId).execute();
    paymentId = null;
  }
  writes.push(performance.now() - started);
}

// The ledger of a freshly seeded file is built once, before the timings (`npm run summaries:rebuild` does the same).
const ledgerStarted = performance.now();
await refreshVatLedger(db, organizationId);
console.log(`VAT ledger brought up to date in ${((performance.now() - ledgerStarted) / 1000).toFixed(1)} s`);

const count = await db
  .selectFrom('documents')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
console.log(
  `\n${Number(count.n)} documents in the database (${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MB); cold = right after a write, median of ${RUNS}`,
);
console.log('| figure | cold p50 ms | cold max ms |\n|---|---:|---:|');
for (const [title, run, writeBefore = write] of figures) {
  if (SKIP && title.includes(SKIP)) continue;
  await run(); // the code paths loaded once
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await writeBefore();
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${title} | ${(times[Math.floor(RUNS / 2)] ?? 0).toFixed(1)} | ${(times.at(-1) ?? 0).toFixed(1)} |`);
}
writes.sort((a, b) => a - b);
console.log(`the write itself (an invoice's payment columns): p50 ${(writes[Math.floor(writes.length / 2)] ?? 0).toFixed(2)} ms`);
if (flip) await write(); // the invoice back as it was
if (paymentId !== null) await pay(); // and without the bench's payment
await connection.close();
