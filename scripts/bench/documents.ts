// The documents list on a seeded year: latency of GET /api/documents (REST door) and documents.list (tRPC door)
// with the filters people use, and of the dashboard, against the built server on loopback. Prints figures only.
import { seedOrganisation } from '../seed/index';
import type { ListFilters } from '../../src/shared/schemas/filters';
import { benchOwner, startBuiltServer } from './built-server';
import { defined } from '../../src/shared/defined';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 400);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const WARMUP = 5;

type Filters = Partial<Pick<ListFilters, 'type' | 'status' | 'search' | 'sort_by' | 'period' | 'min_amount' | 'page'>>;

/** Median and p95 (ms) of `REQUESTS` sequential calls after a few warm-up ones. */
export async function measure(call: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    median: defined(times[Math.floor(times.length / 2)], 'times[Math.floor(times.length / 2)]'),
    p95: defined(times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]),
  };
}

export const cell = (t: { median: number; p95: number }) => `${t.median.toFixed(2)} / ${t.p95.toFixed(2)}`;

export async function benchDocuments(): Promise<void> {
  const server = await startBuiltServer();
  try {
    const { client, cookie } = await benchOwner(server.url, 'documents');
    const seeded = await seedOrganisation(client, { documents: DOCUMENTS });
    const headers = { cookie: cookie };

    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers });
      if (response.status !== 200) throw new Error(`${path} : ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    };
    const rest = (path: string) => get(path) as Promise<{ total: number; data: unknown[] }>;
    // The same procedure on tRPC's wire without the typed client (no batching tick, no superjson decoding).
    const wire = (procedure: string, input?: unknown) =>
      get(`/api/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`);
    // A customer name fragment that the data holds: the first word of the latest document's customer.
    const latest = await client.documents.list.query({});
    const fragment = defined((latest.data.find((d) => d.customer_name)?.customer_name ?? 'Martin').split(/\s/)[0]).slice(0, 6);
    const cases: [string, Filters][] = [
      ['default first page', {}],
      ['type=invoice&status=overdue', { type: 'invoice', status: 'overdue' }],
      [`search=${fragment}`, { search: fragment }],
      ['sort_by=total', { sort_by: 'total' }],
      ['period=this_year', { period: 'this_year' }],
      ['min_amount=5000', { min_amount: 5000 }],
      ['page=5', { page: 5 }],
    ];

    console.log(
      `\n## Documents list: ${seeded.documents} documents (${seeded.customers} customers, ${seeded.items} items, ${seeded.payments} payments) in one organisation`,
    );
    console.log(
      `seeded through the typed client in ${(seeded.ms.total / 1000).toFixed(1)} s (${seeded.requests} calls); built server cold start ${server.coldStartMs.toFixed(0)} ms`,
    );
    console.log(
      `${REQUESTS} sequential requests per cell after ${WARMUP} warm-up, loopback, 10 rows per page, client-side times (JSON parsing included)`,
    );
    console.log(
      'tRPC client: the typed client (httpBatchLink + superjson) as the SPA uses it; tRPC wire: a plain GET /api/trpc/documents.list?input=…',
    );
    console.log('| query | matching | rows | REST median / p95 ms | tRPC client median / p95 ms | tRPC wire median / p95 ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [title, filters] of cases) {
      const query = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString();
      const answer = await rest(`/api/documents${query ? `?${query}` : ''}`);
      const viaRest = await measure(() => rest(`/api/documents${query ? `?${query}` : ''}`));
      const viaTrpc = await measure(() => client.documents.list.query(filters));
      const viaWire = await measure(() => wire('documents.list', filters));
      console.log(`| ${title} | ${answer.total} | ${answer.data.length} | ${cell(viaRest)} | ${cell(viaTrpc)} | ${cell(viaWire)} |`);
    }
    const dashboard = [
      await measure(() => get('/api/dashboard')),
      await measure(() => client.figures.dashboard.query()),
      await measure(() => wire('figures.dashboard')),
    ];
    console.log(`| dashboard (GET /api/dashboard, figures.dashboard) | — | — | ${dashboard.map(cell).join(' | ')} |`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDocuments();
