import { chromium } from 'playwright-core';
import { createApiClient } from './api-client';
import { CHROMIUM_FLAGS, findChromium } from '../src/server/pdf/pdf-renderer';
import { startBuiltServer } from './bench/built-server';

const server = await startBuiltServer();
try {
  const { client } = createApiClient(server.url);
  await client.auth.register.mutate({ first_name: 'B', last_name: 'M', email: 'p@exemple.fr', password: 'bench-password', organization: 'Atelier' });
  const customer = await client.customers.create.mutate({ name: 'Boulangerie Martin', address: { line1: '3 place', postal_code: '69002', city: 'Lyon' } });
  const lines = Number(process.argv[2] ?? 500);
  const items = Array.from({ length: lines }, (_, i) => ({ item: `Prestation ${i + 1}`, description: i % 3 === 0 ? 'Intervention sur site, déplacement compris' : '', quantity: 1 + (i % 4), unit: 'h', unit_price: 40 + (i % 7) * 12.5, taxes: [{ title: 'TVA 20 %', rate: 20 }] }));
  const draft = await client.documents.create.mutate({ type: 'estimate', date: new Date().toISOString().slice(0, 10), customer_id: customer.data.id, items });
  const uuid = (await client.documents.issue.mutate({ id: draft.data.id })).data.uuid;
  const browser = await chromium.launch({ executablePath: findChromium(undefined), headless: true, args: [...CHROMIUM_FLAGS, '--font-render-hinting=none'] });
  const context = await browser.newContext({ viewport: { width: 794, height: 1123 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  const page = await context.newPage();
  page.on('console', (m) => console.log('console:', m.text()));
  await context.addInitScript(() => {
    const t0 = performance.now();
    new MutationObserver((list) => {
      for (const m of list) if (m.type === 'attributes' && (m.target as Element).hasAttribute('data-document-pages')) console.log(`${(performance.now() - t0).toFixed(0)} ${m.attributeName}=${(m.target as Element).getAttribute(m.attributeName!)}`);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-render-ready', 'data-pages', 'aria-busy'] });
    document.fonts.addEventListener('loadingdone', (e) => console.log(`${(performance.now() - t0).toFixed(0)} loadingdone ${(e as FontFaceSetLoadEvent).fontfaces.map((f) => f.family + f.weight).join(',')}`));
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  for (let run = 0; run < 1; run++) {
    if (run === 2 && !process.env.TRACE) await cdp.send("Profiler.start");
    const t0 = performance.now();
    
    await page.goto(`${server.url}/share/${uuid}?print=${run}`, { waitUntil: 'load' });
    const t1 = performance.now();
    await page.waitForSelector('[data-render-ready="true"]', { timeout: 120_000 });
    const t2 = performance.now();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const t3a = performance.now();
    if (run === 2 && !process.env.TRACE) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[]; samples: number[]; timeDeltas: number[] } };
      const self = new Map<string, number>();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      profile.samples.forEach((id, i) => {
        const n = byId.get(id)!;
        const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
        self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
      });
      for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(0).padStart(6), k);
      const e0 = performance.now();
      await page.emulateMedia({ media: 'print' });
      await page.evaluate(() => document.body.getBoundingClientRect().height);
      console.log('print media style+layout', (performance.now() - e0).toFixed(0));
      await page.emulateMedia({ media: 'screen' });
      await page.evaluate(() => document.body.getBoundingClientRect().height);
      const e1 = performance.now();
      await page.emulateMedia({ media: 'print' });
      await page.evaluate(() => document.body.getBoundingClientRect().height);
      console.log('print media again', (performance.now() - e1).toFixed(0));
      await page.emulateMedia({ media: 'screen' });
      await page.evaluate(() => {
        for (const st of document.querySelectorAll('style')) if (st.textContent?.includes('@page')) st.textContent = st.textContent.split('\n').filter((l) => !l.includes(':has(')).join('\n');
        return document.body.getBoundingClientRect().height;
      });
      const e2 = performance.now();
      await page.emulateMedia({ media: 'print' });
      await page.evaluate(() => document.body.getBoundingClientRect().height);
      console.log('print media without :has', (performance.now() - e2).toFixed(0));
      const c = await page.evaluate(() => ({ all: document.querySelectorAll('*').length, styles: document.querySelectorAll('style').length, sheets: document.styleSheets.length }));
      console.log(JSON.stringify(c));
    }
    const t3 = performance.now();
    if (process.env.TRACE && run === 2) await browser.startTracing(page, { path: '/tmp/speed-trace.json', screenshots: false, categories: ['blink', 'cc', 'skia', 'devtools.timeline', 'v8', 'loading', 'disabled-by-default-devtools.timeline'] });
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    const t4 = performance.now();
    if (process.env.TRACE && run === 2) await browser.stopTracing();
    console.log(`run ${run}: load ${(t1 - t0).toFixed(0)} ready ${(t2 - t1).toFixed(0)} fonts ${(t3 - t2).toFixed(0)} pdf ${(t4 - t3).toFixed(0)} bytes ${pdf.length}`);
  }
  await browser.close();
} finally {
  await server.stop();
}
