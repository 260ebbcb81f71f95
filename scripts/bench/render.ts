// PDFs: the server's warm printer for a 10-, 100- and 500-line document, against a fresh Chromium launched
// for each PDF on the same page in the same run (the ratio is the figure: the machine is shared and noisy), the PDFs a
// minute four clients get together, and the download of an issued invoice, served from the file kept at its issue.
// Against the built server on loopback. Prints figures only; asserts nothing about time.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { createApiClient, type ApiClient } from '../api-client';
import { ensureClientBuild } from '../build-if-stale.mjs';
import { chromiumFlags, findChromium } from '../../src/server/pdf/pdf-renderer';
import { startBuiltServer, type BuiltServer } from './built-server';
import { defined } from '../../src/shared/defined';

const SIZES = [
  { lines: 10, warmRuns: 7, freshRuns: 3 },
  { lines: 100, warmRuns: 5, freshRuns: 3 },
  { lines: 500, warmRuns: 3, freshRuns: 0 },
];
const CONCURRENCY = 4;
const THROUGHPUT_MS = 20_000;
const FROZEN_RUNS = 20;

const quantile = (values: number[], q: number) => defined([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)]);
const median = (values: number[]) => quantile(values, 0.5);
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function organisation(client: ApiClient): Promise<number> {
  await client.auth.register.mutate({
    first_name: 'Bench',
    last_name: 'Mark',
    email: 'bench-render@exemple.fr',
    password: 'bench-password',
    organization: 'Atelier Fontaine SARL',
  });
  await client.organization.update.mutate({
    name: 'Atelier Fontaine',
    legal_form: 'SARL',
    capital: '10 000 €',
    siret: '55203253400646',
    rcs_city: 'Paris',
    vat_number: 'FR27552032534',
    address: { line1: '12 rue des Lilas', postal_code: '75011', city: 'Paris' },
  });
  const customer = await client.customers.create.mutate({
    name: 'Boulangerie Martin',
    business_id: '732829320',
    address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
  });
  return customer.data.id;
}

/** An issued document of `size` lines: a quote is printed at each download, an invoice once at its issue. */
async function issuedDocument(client: ApiClient, customerId: number, type: 'estimate' | 'invoice', size: number): Promise<string> {
  const items = Array.from({ length: size }, (_, i) => ({
    item: `Prestation ${i + 1}`,
    description: i % 3 === 0 ? 'Intervention sur site, déplacement compris' : '',
    quantity: 1 + (i % 4),
    unit: 'h',
    unit_price: 40 + (i % 7) * 12.5,
    taxes: [{ title: 'TVA 20 %', rate: 20 }],
  }));
  const date = new Date().toISOString().slice(0, 10);
  const draft = await client.documents.create.mutate({ type, date, customer_id: customerId, items });
  return (await client.documents.issue.mutate({ id: draft.data.id })).data.uuid;
}

let clients = 0;
/** One download, as a distinct client behind the loopback proxy (TRUST_PROXY's default): the per-IP limit is not the figure. */
async function download(server: BuiltServer, uuid: string): Promise<{ ms: number; bytes: Uint8Array }> {
  clients += 1;
  const start = performance.now();
  const response = await fetch(`${server.url}/documents/download/${uuid}`, {
    headers: { 'x-forwarded-for': `198.18.${(clients >> 8) & 255}.${clients & 255}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`PDF ${uuid} : ${response.status}`);
  return { ms: performance.now() - start, bytes };
}

const pageCount = (bytes: Uint8Array) =>
  (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/\/Type\s*\/Page[^s]/g) ?? []
  ).length;

/** The alternative to a warm printer: a Chromium launched for this one PDF, printing the same page the same way. */
async function freshChromium(executablePath: string, url: string): Promise<number> {
  const start = performance.now();
  const browser = await chromium.launch({ executablePath, headless: true, args: [...chromiumFlags(), '--font-render-hinting=none'] });
  try {
    const context = await browser.newContext({ viewport: { width: 794, height: 1123 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('[data-render-ready="true"]', { timeout: 60_000 });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
  } finally {
    await browser.close();
  }
  return performance.now() - start;
}

/** Proportional set size of the server's descendants (its Chromium), shared pages split between them. */
function descendantsPssMiB(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const family = new Set([pid]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [child, parent] of parents) {
      if (family.has(parent) && !family.has(child)) {
        family.add(child);
        grown = true;
      }
    }
  }
  family.delete(pid);
  let kib = 0;
  for (const member of family) {
    try {
      kib += Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${member}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return kib / 1024;
}

export async function benchRender(): Promise<void> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) {
    console.log('\n## PDF: skipped, no Chromium (apt-get install -y chromium, or CHROMIUM_PATH)');
    return;
  }
  await ensureClientBuild();
  const server = await startBuiltServer();
  try {
    const { client } = createApiClient(server.url);
    const customerId = await organisation(client);
    const quotes = new Map<number, string>();
    for (const { lines } of SIZES) quotes.set(lines, await issuedDocument(client, customerId, 'estimate', lines));
    const quote = (lines: number) => defined(quotes.get(lines), 'quote');

    const cold = await download(server, quote(10));
    console.log('\n## PDF (A4, default template, built server on loopback, one run)');
    console.log(`First PDF of the process (launches its Chromium): ${ms(cold.ms)}`);
    console.log('| lines | pages | KiB | warm printer (median) | fresh Chromium per PDF (median) | fresh ÷ warm |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const { lines, warmRuns, freshRuns } of SIZES) {
      // Interleaved, so that both sides see the same load on the shared machine.
      const warm: number[] = [];
      const fresh: number[] = [];
      let bytes: Uint8Array = new Uint8Array();
      for (let run = 0; run < Math.max(warmRuns, freshRuns); run++) {
        if (run < warmRuns) {
          const answer = await download(server, quote(lines));
          warm.push(answer.ms);
          bytes = answer.bytes;
        }
        if (run < freshRuns) fresh.push(await freshChromium(executablePath, `${server.url}/share/${quote(lines)}?print=1`));
      }
      const ratio = fresh.length ? `${(median(fresh) / median(warm)).toFixed(1)}×` : '—';
      console.log(
        `| ${lines} | ${pageCount(bytes)} | ${(bytes.length / 1024).toFixed(0)} | ${ms(median(warm))} (${warm.length}) | ${fresh.length ? `${ms(median(fresh))} (${fresh.length})` : '—'} | ${ratio} |`,
      );
    }

    // Four clients downloading a 10-line quote back to back for a while.
    const latencies: number[] = [];
    const until = performance.now() + THROUGHPUT_MS;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) latencies.push((await download(server, quote(10))).ms);
      }),
    );
    const elapsed = performance.now() - started;
    console.log(
      `${CONCURRENCY} concurrent clients, 10-line PDFs for ${(elapsed / 1000).toFixed(0)} s: ${((latencies.length * 60_000) / elapsed).toFixed(0)} PDFs a minute, median ${ms(median(latencies))}, p95 ${ms(quantile(latencies, 0.95))}; the server's Chromium then holds ${descendantsPssMiB(server.pid).toFixed(0)} MiB (PSS)`,
    );

    // An issued invoice: printed (and made Factur-X) once at its issue; every download serves that kept file.
    const invoice = await issuedDocument(client, customerId, 'invoice', 10);
    const kept = await download(server, invoice);
    const frozen: number[] = [];
    for (let run = 0; run < FROZEN_RUNS; run++) frozen.push((await download(server, invoice)).ms);
    console.log(
      `Issued 10-line invoice: first download right after issuing ${ms(kept.ms)} (waits for its printing at issue); then served from its kept file: median ${ms(median(frozen))} (${FROZEN_RUNS} downloads)`,
    );
  } finally {
    await server.stop();
  }
}
