// Several processes: throughput of 1, 2 and 4 built servers on one PostgreSQL database (the scale bench's
// organisation of 100 000 documents beside a neighbour one, copied there by `npm run db:copy`'s code), for the
// documents list and for a write (a draft created), at a fixed number of connections. The connections are spread
// over the processes in turn (autocannon's several targets), as nginx's round-robin upstream of the README spreads
// its keep-alive connections, without a proxy hop of its own taking a share of this machine's cores.
// Part of `npm run bench -- scale --pg postgres://…`, on the database it copied; alone: `npm run bench -- processes --pg …`
// (benchProcesses in scale.ts, which copies the database first). Prints figures; asserts nothing about time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createApiClient } from '../api-client';
import { startBuiltServer, type BuiltServer } from './built-server';
import { defined } from '../../src/shared/defined';
import { todayIso } from '../../src/server/services/document-record';

const COUNTS = [1, 2, 4];
const CONNECTIONS = Number(process.env.BENCH_PROCESS_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_PROCESS_SECONDS ?? 5);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

async function load(targets: string[], options: Omit<autocannon.Options, 'url'> = {}): Promise<Figures> {
  // autocannon spreads its connections over several targets in turn (its README: "More than one URL is allowed");
  // its type declarations know only one.
  const url = targets as unknown as string;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${targets.join(', ')}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The table of 1, 2 and 4 processes on `databaseUrl`, which holds the scale bench's organisations (`login`'s among them). */
export async function measureProcesses(databaseUrl: string, login: { email: string; password: string }): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-processes-'));
  const rows: { n: number; list: Figures; write: Figures }[] = [];
  try {
    for (const n of COUNTS) {
      const servers: BuiltServer[] = [];
      try {
        // One after the other, as the README's deployment starts them: the first migrates, the others find it done.
        for (let i = 0; i < n; i++) servers.push(await startBuiltServer({ databaseUrl, dataDir }));
        const { client, cookie } = createApiClient(defined(servers[0]).url);
        await client.auth.login.mutate(login);
        // Sessions live in the database: the one cookie is valid on every process.
        const session = defined(cookie(), 'cookie()');
        // A customer made by the app (the seeded ones are bare rows, without the address a draft copies).
        const customer = await client.customers.create.mutate({
          name: `Boulangerie Martin ${n}`,
          address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
        });
        const customerId = customer.data.id;
        const targets = servers.map((s) => `${s.url}/api/documents`);
        const list = await load(targets, { headers: { cookie: session } });
        const draft = {
          method: 'POST' as const,
          headers: { cookie: session, 'content-type': 'application/json' },
          body: JSON.stringify({
            date: todayIso(),
            customer_id: customerId,
            items: [{ item: 'Prestation', quantity: 1, unit_price: 120, taxes: [{ title: 'TVA 20 %', rate: 20 }] }],
          }),
        };
        // One first, to say why if the server refuses it (autocannon only counts the refusals).
        const probe = await fetch(defined(targets[0]), draft);
        if (probe.status !== 201) throw new Error(`POST /api/documents : ${probe.status} ${await probe.text()}`);
        const write = await load(targets, draft);
        rows.push({ n, list, write });
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\n## Processes on one PostgreSQL database: ${CONNECTIONS} connections spread over the processes, ${SECONDS} s each; ` +
      `${os.cpus().length} cores on this machine, shared with the PostgreSQL server and autocannon`,
  );
  console.log('| processes | GET /api/documents req/s | p50 / p99 ms | POST /api/documents (draft) req/s | p50 / p99 ms |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.n} | ${r.list.rps.toFixed(0)} | ${r.list.p50} / ${r.list.p99} | ${r.write.rps.toFixed(0)} | ${r.write.p50} / ${r.write.p99} |`,
    );
}
