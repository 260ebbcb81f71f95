// Heavy work beside ordinary reads, on the built server: 50 connections read the documents list while one client
// issues a 2,000-line invoice (its EN 16931 validation) and another imports a ~9.9 MB supplier e-invoice, then while
// another organisation exports a year's FEC. Prints the list's latency without and with the heavy work, the server's
// event-loop delay (its /metrics) and the heavy requests' durations. Asserts nothing about time.
import http from 'node:http';
import autocannon from 'autocannon';
import { seedOrganisation } from '../seed/index';
import { businessCustomer, sellerIdentity } from '../../tests/helpers/documents';
import { largeSupplierCii, manyLines } from '../../tests/helpers/large-einvoice';
import { benchOwner, startBuiltServer } from './built-server';
import { seedDirectly } from './reports';

const CONNECTIONS = 50;
/** Documents of the organisation whose FEC is exported (over three years, as the reports bench seeds them). */
const FEC_DOCUMENTS = Number(process.env.BENCH_FEC_DOCUMENTS ?? 30_000);
const BASELINE_S = Number(process.env.BENCH_SECONDS ?? 6);
export const METRICS_TOKEN = 'jeton-du-banc-des-travaux-lourds';

type Latency = { requests: number; p50: number; p99: number; max: number; non2xx: number };

/** Reads the list with 50 connections until `until` settles (or for `seconds`). */
function readList(url: string, cookie: string, until: Promise<unknown> | number): Promise<Latency> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: typeof until === 'number' ? until : 3600, headers: { cookie } },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          requests: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          non2xx: result.non2xx,
        });
      },
    );
    if (typeof until !== 'number') void until.finally(() => instance.stop());
  });
}

/** The server's event-loop delay since its previous scrape (ms): p50, p99, max. */
export async function eventLoopDelay(base: string): Promise<{ p50: number; p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const quantile = (q: string) => {
    const match = new RegExp(`^facturier_event_loop_delay_seconds\\{quantile="${q}"\\} (\\S+)$`, 'm').exec(text);
    return Number(match?.[1] ?? Number.NaN) * 1000;
  };
  return { p50: quantile('0.5'), p99: quantile('0.99'), max: quantile('1') };
}

/** One request (POST unless said) timed to its answer, with node:http: fetch gives up on an answer whose headers take over 5 minutes. */
function timed(url: string, cookie: string, body?: unknown, method = 'POST'): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        headers:
          body === undefined ? { cookie } : { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export async function benchHeavy(): Promise<void> {
  console.log('\n## Heavy work beside the documents list (built server)');
  // The budget is the server's own business; here each heavy request is let run to its end on a shared machine.
  process.env.METRICS_TOKEN = METRICS_TOKEN;
  process.env.HEAVY_TASK_SECONDS ??= '900';
  // No PDF kept at issue (Chromium printing the seeded documents would be measured instead): a path with no Chromium.
  process.env.CHROMIUM_PATH ??= '/nonexistent/chromium';
  const server = await startBuiltServer();
  try {
    const { client, cookie } = await benchOwner(server.url, 'heavy');
    const headers = { cookie: cookie, 'content-type': 'application/json' };
    const rest = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    await seedOrganisation(client, { documents: 200 });
    await rest('PUT', '/api/organization', sellerIdentity);
    const customer = (await (await rest('POST', '/api/customers', businessCustomer)).json()) as { data: { id: number } };
    const created = await rest('POST', '/api/documents', {
      type: 'invoice',
      date: new Date().toISOString().slice(0, 10),
      customer_id: customer.data.id,
      items: manyLines(2000),
    });
    if (created.status !== 201) throw new Error(`brouillon de 2 000 lignes : ${created.status} ${await created.text()}`);
    const draftId = ((await created.json()) as { data: { id: number } }).data.id;
    const { xml, lines } = largeSupplierCii(9_900_000);
    const upload = { filename: 'fournisseur.xml', content_base64: xml.toString('base64') };

    const listUrl = `${server.url}/api/documents?per_page=25`;
    await eventLoopDelay(server.url);
    const baseline = await readList(listUrl, cookie, BASELINE_S);
    const idle = await eventLoopDelay(server.url);

    const heavy = Promise.all([
      timed(`${server.url}/api/documents/${draftId}/issue`, headers.cookie),
      timed(`${server.url}/api/expenses/import`, headers.cookie, upload),
    ]);
    const loaded = await readList(listUrl, cookie, heavy);
    const [issue, imported] = await heavy;
    const busy = await eventLoopDelay(server.url);

    console.log(`\n${CONNECTIONS} connections on GET /api/documents (25 per page, 200 documents)`);
    console.log('| period | requests | list p50 ms | list p99 ms | list max ms | non-2xx | event loop p50 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [name, list, loop] of [
      [`alone (${BASELINE_S} s)`, baseline, idle],
      ['during the issue and the import', loaded, busy],
    ] as const) {
      console.log(
        `| ${name} | ${list.requests} | ${list.p50} | ${list.p99} | ${list.max} | ${list.non2xx} | ${loop.p50.toFixed(1)} | ${loop.p99.toFixed(1)} | ${loop.max.toFixed(1)} |`,
      );
    }
    console.log('\n| heavy request | status | duration s |');
    console.log('|---|---:|---:|');
    console.log(`| issue of a 2,000-line invoice | ${issue.status} | ${(issue.ms / 1000).toFixed(1)} |`);
    console.log(
      `| import of a ${lines}-line supplier CII (${(xml.length / 1e6).toFixed(1)} MB) | ${imported.status} | ${(imported.ms / 1000).toFixed(1)} |`,
    );
    for (const answer of [issue, imported]) if (answer.status >= 300) console.log(`  refusal: ${answer.body.slice(0, 300)}`);

    // A year's FEC of another organisation (seeded straight into the database) read while the list is read.
    const books = await benchOwner(server.url, 'heavy-fec');
    const booksOrganization = (await books.client.auth.me.query()).organization.id;
    await fetch(`${server.url}/api/organization`, {
      method: 'PUT',
      headers: { cookie: books.cookie, 'content-type': 'application/json' },
      body: JSON.stringify(sellerIdentity),
    });
    await seedDirectly(server.dbPath, booksOrganization, FEC_DOCUMENTS);
    const year = new Date().getFullYear();
    const fecUrl = `${server.url}/api/exports/fec?year=${year}`;
    await eventLoopDelay(server.url);
    const exporting = timed(fecUrl, books.cookie, undefined, 'GET');
    const duringFec = await readList(listUrl, cookie, exporting);
    const fec = await exporting;
    const fecLoop = await eventLoopDelay(server.url);
    console.log(
      `\n${CONNECTIONS} connections on GET /api/documents during a FEC export of ${FEC_DOCUMENTS.toLocaleString('en')} documents over 3 years (its year: ${fec.body.split('\r\n').length - 2} lines, ${(fec.body.length / 1e6).toFixed(1)} MB)`,
    );
    console.log(
      '| period | requests | list p50 ms | list p99 ms | list max ms | non-2xx | event loop p50 ms | p99 ms | max ms | FEC status | FEC s |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| during the FEC export | ${duringFec.requests} | ${duringFec.p50} | ${duringFec.p99} | ${duringFec.max} | ${duringFec.non2xx} | ${fecLoop.p50.toFixed(1)} | ${fecLoop.p99.toFixed(1)} | ${fecLoop.max.toFixed(1)} | ${fec.status} | ${(fec.ms / 1000).toFixed(1)} |`,
    );
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHeavy();
