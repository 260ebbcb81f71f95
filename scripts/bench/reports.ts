// The statistics on 100 000 issued documents (BENCH_REPORT_DOCUMENTS): latency of every GET /api/reports/* on the
// built server, then SQLite's plan of each query they run. The documents are written straight into the database
// (seeding them through the API would take many minutes): rows shaped as the issue service stores them.
// With `--pg postgres://…` (or BENCH_DATABASE_URL), the same database copied to PostgreSQL and measured beside it.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { createApiClient } from '../api-client';
import { startBuiltServer } from './built-server';
import { cell, measure } from './documents';
import { benchPostgresUrl, capturingPostgres, copyToPostgres, freshPostgresDatabase, planLines, seconds, thousands } from './postgres';
import { defined } from '../../src/shared/defined';
import type { Database } from '../../src/server/db/schema';
import { writeDocumentTaxes } from '../../src/server/db/queries/document-taxes';
import {
  customersReport,
  itemsReport,
  receiptsBook,
  receivablesReport,
  tagsReport,
  turnoverReport,
  urssafReport,
} from '../../src/server/services/reports';
import { vatReport } from '../../src/server/services/vat-return';

const DOCUMENTS = Number(process.env.BENCH_REPORT_DOCUMENTS ?? 100_000);
const CUSTOMERS = 2_000;
const YEARS = 3;

/** A customer's address as the customers service stores it (the customers list checks its shape). */
const ADDRESS = JSON.stringify({
  line1: '12 rue de la République',
  line2: '',
  city: 'Lyon',
  state: '',
  postal_code: '69002',
  country: 'FR',
});

/** A small deterministic generator, so that two runs measure the same data. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export async function seedDirectly(dbPath: string, organizationId: number, documents = DOCUMENTS) {
  const db = new SQLite(dbPath);
  db.pragma('busy_timeout = 5000');
  // One transaction per organisation: a cache that holds it (a few GB at most for a million documents) keeps its pages
  // from spilling to the WAL and being read back while it runs. SQLite's default is 2 MB.
  db.pragma('cache_size = -4000000');
  const random = lcg(17);
  const now = new Date().toISOString();
  const today = now.slice(0, 10);
  const start = Date.parse(`${Number(today.slice(0, 4)) - YEARS + 1}-01-01T00:00:00Z`);
  const span = Date.parse(`${today}T00:00:00Z`) - start;
  const insertCustomer = db.prepare(
    `INSERT INTO customers (organization_id, number, type, name, legal_name, email, phone, mobile, web, business_id, vat_number,
      address, address_city, shipping, contacts, language, currency, maturity, note, description, created_at, updated_at)
     VALUES (?, ?, 'company', ?, '', '', '', '', '', '', '', ?, 'Lyon', ?, '[]', 'fr', 'EUR', 30, '', '', ?, ?)`,
  );
  const insertDocument = db.prepare(
    `INSERT INTO documents (organization_id, type, kind, status, number, counter, uuid, date, maturity, condition, header, footer,
      terms, note, shipping_fee, shipping_details, vat_exemption, additional_info, deposit_request, customer_id, customer_name,
      currency, price_mode, legal_mentions, tax_groups, subtotal, discount, tax, shipping, total, deposits, paid, amount_due,
      exchange_rate, goods_net, lines_net, has_services, issued_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', '', '', '', '', '0', '', '', '[]', '[]', ?, ?, ?, 'ht', '[]', ?, ?, 0, ?, 0, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertItem = db.prepare(
    `INSERT INTO document_items (document_id, position, code, sku, item, description, quantity, unit, unit_price, discount_type,
      discount_value, taxes, kind, amounts, net) VALUES (?, 0, '', '', ?, '', '1', '', ?, 'percent', '0', '[]', ?, ?, ?)`,
  );
  const insertPayment = db.prepare(
    `INSERT INTO payments (organization_id, document_id, date, amount, method, reference, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '', '', ?, ?)`,
  );
  const started = performance.now();
  let payments = 0;
  db.transaction(() => {
    const customerIds: number[] = [];
    for (let c = 1; c <= CUSTOMERS; c++)
      customerIds.push(Number(insertCustomer.run(organizationId, `C${c}`, `Client ${c}`, ADDRESS, ADDRESS, now, now).lastInsertRowid));
    // Dates ascending, as chronological numbering makes them.
    const dates = Array.from({ length: documents }, () => new Date(start + random() * span).toISOString().slice(0, 10)).sort();
    for (let i = 0; i < documents; i++) {
      const date = defined(dates[i]);
      const roll = random();
      const type = roll < 0.08 ? 'credit' : roll < 0.12 ? 'estimate' : 'invoice';
      const kind = type === 'invoice' && random() < 0.03 ? 'deposit' : 'standard';
      const usd = random() < 0.05;
      const rate = random() < 0.2 ? 5.5 : 20;
      const ht = Math.round(50 + random() * 5000) * 100; // cents
      const vat = Math.round((ht * rate) / 100);
      const total = ht + vat;
      const paidRoll = random();
      const paid = type !== 'invoice' ? 0 : paidRoll < 0.6 ? total : paidRoll < 0.75 ? Math.round(total / 2) : 0;
      const status =
        type === 'credit' ? 'pending' : type === 'estimate' ? 'accepted' : paid === total ? 'paid' : paid > 0 ? 'partial' : 'unpaid';
      const maturity = new Date(Date.parse(`${date}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
      const customer = defined(customerIds[Math.floor(random() * CUSTOMERS)]);
      const nature = random() < 0.7 ? 'service' : 'goods';
      const taxGroups = JSON.stringify([{ title: `TVA ${rate} %`, rate, taxable_amount: ht / 100, amount: vat / 100 }]);
      const id = Number(
        insertDocument.run(
          organizationId,
          type,
          kind,
          status,
          `D${i + 1}`,
          i + 1,
          `bench-${organizationId}-${i}`, // unique across organisations (the scale bench seeds two)
          date,
          maturity,
          customer,
          `Client ${customer}`,
          usd ? 'USD' : 'EUR',
          taxGroups,
          ht * 100,
          vat * 100,
          total * 100,
          paid * 100,
          (total - paid) * 100,
          usd ? '1.085' : '1',
          nature === 'goods' ? ht * 100 : 0,
          ht * 100,
          nature === 'service' ? 1 : 0,
          // Issued, created and last saved on its own day, as a business writes its documents over the years: a
          // month's count (the plan's usage) reads that month's, not the whole history.
          `${date}T10:00:00.000Z`,
          `${date}T09:00:00.000Z`,
          `${date}T10:00:00.000Z`,
        ).lastInsertRowid,
      );
      const line = {
        price: ht / 100,
        net_price: ht / 100,
        subtotal: ht / 100,
        discount: 0,
        gross_total: ht / 100,
        tax: vat / 100,
        total: total / 100,
      };
      insertItem.run(
        id,
        `Article ${Math.floor(random() * 300)}`,
        String(ht / 100),
        random() < 0.7 ? 'service' : 'goods',
        JSON.stringify(line),
        ht * 100, // the line's gross_total in stored units, as lineColumns writes it
      );
      if (paid > 0) {
        insertPayment.run(
          organizationId,
          id,
          maturity < today ? maturity : date,
          paid * 100,
          random() < 0.7 ? 'transfer' : 'card',
          now,
          now,
        );
        payments++;
      }
    }
  })();
  // What the issue service writes beside each issued document, derived by its own function from the rows above.
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
  // Statement by statement, not one long transaction: the server's scheduler writes too, and waits 5 s at most.
  await writeDocumentTaxes(kysely, { organizationId });
  db.exec('ANALYZE');
  await kysely.destroy(); // closes the better-sqlite3 handle too
  return { payments, ms: performance.now() - started };
}

/** The reports whose statements are explained, each run once in process. */
function reportRuns(
  db: Kysely<Database>,
  organizationId: number,
  period: { from: string; to: string },
): [string, () => Promise<unknown>][] {
  return [
    ['turnover', () => turnoverReport(db, organizationId, { ...period, group: 'month' })],
    ['customers', () => customersReport(db, organizationId, period)],
    ['items', () => itemsReport(db, organizationId, period)],
    ['tags', () => tagsReport(db, organizationId, period)],
    ['vat', () => vatReport(db, organizationId, period)],
    ['receivables', () => receivablesReport(db, organizationId)],
    ['receipts', () => receiptsBook(db, organizationId, { ...period, page: 1 })],
    ['urssaf', () => urssafReport(db, organizationId, { ...period, group: 'quarter' })],
  ];
}

const READS_DOCUMENTS = /\b(documents|payments|expenses|document_taxes)\b/;
const shortSql = (q: CompiledQuery) => `- \`${q.sql.replace(/\s+/g, ' ').slice(0, 110)}…\``;

/** Each SQL statement a report runs, captured once from an in-process call, and SQLite's plan for it. */
async function plans(dbPath: string, organizationId: number, period: { from: string; to: string }) {
  const queries: CompiledQuery[] = [];
  const raw = new SQLite(dbPath, { readonly: true });
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: raw }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
  for (const [name, run] of reportRuns(db, organizationId, period)) {
    queries.length = 0;
    await run();
    console.log(`\n### ${name}`);
    for (const q of queries) {
      if (!READS_DOCUMENTS.test(q.sql)) continue;
      const plan = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[];
      console.log(shortSql(q));
      for (const p of plan) console.log(`  - ${p.detail}`);
    }
  }
  await db.destroy();
}

/** The same statements on PostgreSQL (their SQL is PostgreSQL's), with its EXPLAIN, one line per plan node. */
async function postgresPlans(databaseUrl: string, organizationId: number, period: { from: string; to: string }) {
  const queries: CompiledQuery[] = [];
  const captured = capturingPostgres(databaseUrl, queries);
  try {
    for (const [name, run] of reportRuns(captured.db, organizationId, period)) {
      queries.length = 0;
      await run();
      console.log(`\n### ${name}`);
      // A copy: the EXPLAIN statements are logged into `queries` too.
      for (const q of [...queries]) {
        if (!READS_DOCUMENTS.test(q.sql)) continue;
        console.log(shortSql(q));
        for (const line of await planLines(captured.db, q)) console.log(`  ${line}`);
      }
    }
  } finally {
    await captured.close();
  }
}

const REPORTS_LOGIN = { email: 'bench-reports@exemple.fr', password: 'bench-password' };

/** The paths measured, on both databases. */
function reportPaths(): string[] {
  const year = Number(new Date().toISOString().slice(0, 4));
  const lastYear = `from=${year - 1}-01-01&to=${year - 1}-12-31`;
  const all = `from=${year - YEARS + 1}-01-01&to=${year}-12-31`;
  return [
    `/api/reports/turnover?${lastYear}&group=month`,
    `/api/reports/turnover?${all}&group=quarter`,
    `/api/reports/customers?${lastYear}`,
    `/api/reports/items?${lastYear}`,
    `/api/reports/tags?${lastYear}`,
    `/api/reports/vat?${lastYear}`,
    `/api/reports/vat?from=${year - 1}-01-01&to=${year - 1}-03-31`,
    '/api/reports/receivables',
    `/api/reports/margin?${lastYear}`,
    `/api/reports/receipts?${lastYear}`,
    `/api/reports/urssaf?${lastYear}&group=quarter`,
    '/api/dashboard',
  ];
}

/** A GET on the built server with the session's cookie, refusing any answer but 200. */
const getter = (base: string, cookie: string) => async (path: string) => {
  const response = await fetch(`${base}${path}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`${path} : ${response.status} ${await response.text()}`);
  return response.json() as Promise<unknown>;
};

/**
 * With `--pg postgres://…`: the seeded SQLite database copied into a new database on that server by
 * `npm run db:copy`'s code (timed), the same reports on the built server running on it, side by side, and
 * PostgreSQL's plans.
 */
async function onPostgres(postgres: string, sqliteFile: string, organizationId: number, sqliteCells: { median: number; p95: number }[]) {
  const target = await freshPostgresDatabase(postgres, 'reports');
  try {
    const copied = await copyToPostgres(sqliteFile, target.url);
    const server = await startBuiltServer({ databaseUrl: target.url });
    try {
      const { client, cookie } = createApiClient(server.url);
      await client.auth.login.mutate(REPORTS_LOGIN);
      const get = getter(server.url, defined(cookie(), 'cookie()'));
      console.log(`\n## Reports on both: the same ${thousands(copied.documents)} documents on SQLite and on PostgreSQL`);
      console.log(
        `copie ${thousands(copied.documents)} documents → PostgreSQL : ${seconds(copied.ms)} s (npm run db:copy's code: migrations, ` +
          `${thousands(Object.values(copied.tables).reduce((a, b) => a + b, 0))} rows, search index, counts and audit logs verified; ` +
          `then ANALYZE); PostgreSQL database ${copied.sizeMb.toFixed(0)} MB`,
      );
      console.log('| endpoint | SQLite median / p95 ms | PostgreSQL median / p95 ms | PG/SQLite median |');
      console.log('|---|---:|---:|---:|');
      for (const [i, path] of reportPaths().entries()) {
        const a = defined(sqliteCells[i]);
        const b = await measure(() => get(path));
        console.log(`| GET ${path} | ${cell(a)} | ${cell(b)} | ${(b.median / a.median).toFixed(1)} |`);
      }
      const year = Number(new Date().toISOString().slice(0, 4));
      console.log('\nPostgreSQL EXPLAIN of each query (estimated rows; after ANALYZE):');
      await postgresPlans(target.url, organizationId, { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` });
    } finally {
      await server.stop();
    }
  } finally {
    await target.drop();
  }
}

export async function benchReports(): Promise<void> {
  const postgres = benchPostgresUrl();
  const server = await startBuiltServer();
  try {
    const { client, cookie } = createApiClient(server.url);
    await client.auth.register.mutate({
      first_name: 'Bench',
      last_name: 'Mark',
      ...REPORTS_LOGIN,
      organization: 'Atelier Fontaine SARL',
    });
    const organizationId = (await client.auth.me.query()).organization.id;
    await client.currencies.create.mutate({ code: 'USD', rate: '1.085' });
    const seeded = await seedDirectly(server.dbPath, organizationId);
    const get = getter(server.url, defined(cookie(), 'cookie()'));
    const year = Number(new Date().toISOString().slice(0, 4));
    console.log(
      `\n## Reports: ${DOCUMENTS} documents over ${YEARS} years (${CUSTOMERS} customers, ${seeded.payments} payments, 5 % in USD), one organisation`,
    );
    console.log(`written straight into SQLite in ${(seeded.ms / 1000).toFixed(1)} s; REST on the built server, loopback, sequential`);
    console.log('| endpoint | median / p95 ms |');
    console.log('|---|---:|');
    const cells: { median: number; p95: number }[] = [];
    for (const path of reportPaths()) {
      const figures = await measure(() => get(path));
      cells.push(figures);
      console.log(`| GET ${path} | ${cell(figures)} |`);
    }
    console.log('\nEXPLAIN QUERY PLAN of each query (VAT on receipts, the default option, runs the most):');
    await plans(server.dbPath, organizationId, { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` });
    if (postgres) await onPostgres(postgres, server.dbPath, organizationId, cells);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchReports();
