// Rendering and PDFs: time for the browser to lay out and paginate a 10-, 100- and 500-line invoice, and for the
// server to print its PDF (cold: Chromium launched by that request; warm: the kept browser), with the PDF's size.
// Against the built server on loopback. Prints figures only.
import { chromium, type Browser } from 'playwright-core';
import { createApiClient } from '../api-client';
import { ensureClientBuild } from '../build-if-stale.mjs';
import { findChromium } from '../../src/server/pdf/pdf-renderer';
import { startBuiltServer } from './built-server';
import { defined } from '../../src/shared/defined';
import { CHROMIUM_FLAGS } from '../../src/server/pdf/pdf-renderer';

const SIZES = [10, 100, 500];
const WARM_RUNS = 3;

const median = (values: number[]) => defined([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);

/** One server per size, so that each size has its own cold PDF (the process's first: Chromium launched by it). */
async function benchSize(browser: Browser, size: number): Promise<string> {
  const server = await startBuiltServer();
  try {
    const { client } = createApiClient(server.url);
    await client.auth.register.mutate({
      first_name: 'Bench',
      last_name: 'Mark',
      email: `bench-render-${size}@exemple.fr`,
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
    const items = Array.from({ length: size }, (_, i) => ({
      item: `Prestation ${i + 1}`,
      description: i % 3 === 0 ? 'Intervention sur site, déplacement compris' : '',
      quantity: 1 + (i % 4),
      unit: 'h',
      unit_price: 40 + (i % 7) * 12.5,
      taxes: [{ title: 'TVA 20 %', rate: 20 }],
    }));
    const draft = await client.documents.create.mutate({
      type: 'invoice',
      date: new Date().toISOString().slice(0, 10),
      customer_id: customer.data.id,
      items,
    });
    const { data: invoice } = await client.documents.issue.mutate({ id: draft.data.id });

    const download = async () => {
      const start = performance.now();
      const response = await fetch(`${server.url}/documents/download/${invoice.uuid}`);
      const bytes = (await response.arrayBuffer()).byteLength;
      if (response.status !== 200) throw new Error(`PDF ${size} lignes : ${response.status}`);
      return { ms: performance.now() - start, bytes };
    };
    const cold = await download();
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push((await download()).ms);

    const layouts: number[] = [];
    let pages = 0;
    for (let run = 0; run < 3; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const start = performance.now();
      await page.goto(`${server.url}/share/${invoice.uuid}?print=1`);
      await page.waitForSelector('[data-render-ready="true"]', { timeout: 60_000 });
      layouts.push(performance.now() - start);
      pages = Number(await page.getAttribute('[data-render-ready="true"]', 'data-pages'));
      await page.close();
    }
    return `| ${size} | ${pages} | ${median(layouts).toFixed(0)} | ${cold.ms.toFixed(0)} | ${median(warm).toFixed(0)} | ${(cold.bytes / 1024).toFixed(0)} |`;
  } finally {
    await server.stop();
  }
}

export async function benchRender(): Promise<void> {
  const executablePath = findChromium(process.env.CHROMIUM_PATH);
  if (!executablePath) {
    console.log('\n## Rendering and PDF: skipped, no Chromium (apt-get install -y chromium, or CHROMIUM_PATH)');
    return;
  }
  await ensureClientBuild();
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
  try {
    console.log('\n## Rendering and PDF (A4, default template, built server on loopback, one invoice per size)');
    console.log('| lines | pages | layout in Chromium (ms, median of 3) | PDF cold (ms) | PDF warm (ms, median of 3) | PDF size (KiB) |');
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const size of SIZES) console.log(await benchSize(browser, size));
    console.log(
      'Layout: navigation to data-render-ready (fonts loaded, rows measured, pages split). Cold: the first PDF of a fresh server process, which launches its Chromium.',
    );
  } finally {
    await browser.close();
  }
}
