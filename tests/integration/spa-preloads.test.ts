// The HTML of a page of the app's shell names its first data request and its files, for the browser to ask before any
// script has run; every other address gets the build's HTML as it is. No inline script: the CSP stays as strict.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { batchQueryUrl } from '../../src/server/http/spa-preloads';
import { CONTENT_SECURITY_POLICY } from '../../src/server/http/security-headers';
import { routeQueries, SESSION_QUERIES } from '../../src/shared/route-queries';
import { parisToday } from '../../src/shared/paris-date';

const INDEX = `<!doctype html>
<html lang="fr">
  <head>
    <title>Facturier</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_ui-core-1.js'] },
  '_ui-core-1.js': { file: 'assets/ui-core-1.js' },
  'src/client/data-layer.tsx': { file: 'assets/data-layer-1.js', imports: ['index.html'] },
  'src/client/layouts/main-layout.tsx': { file: 'assets/main-layout-1.js', imports: ['_ui-core-1.js'] },
  'src/client/lib/zod-setup.ts': { file: 'assets/zod-setup-1.js' },
  'src/client/routes/documents/documents-page.tsx': { file: 'assets/documents-page-1.js', imports: ['_table-1.js'] },
  '_table-1.js': { file: 'assets/table-1.js' },
};

const escaped = (url: string) => url.replaceAll('&', '&amp;');

describe('the HTML of the app’s pages', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-dist-'));
    fs.mkdirSync(path.join(dist, '.vite'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    server = await startTestServer({ env: { CLIENT_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('names, for a list, the batch its loader sends for that address, then its files in the order it runs them', async () => {
    const answer = await fetch(`${server.url}/invoices?status=late&page=2`, { headers: { 'accept-encoding': 'gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const html = await answer.text();
    const url = batchQueryUrl([
      ...SESSION_QUERIES,
      ...routeQueries('/invoices', { status: 'late', page: '2' }, { today: parisToday(), wide: true }),
    ]);
    expect(html).toContain(`<head>\n    <link rel="preload" as="fetch" crossorigin href="${escaped(url)}">`);
    const files = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((match) => match[1]);
    expect(files).toEqual([
      '/assets/data-layer-1.js',
      '/assets/main-layout-1.js',
      '/assets/zod-setup-1.js',
      '/assets/table-1.js',
      '/assets/documents-page-1.js',
    ]);
    expect(html).not.toMatch(/<script>/);
  });

  it('names the agenda’s day for a phone that says it is one, its week otherwise, and says the HTML varies with it', async () => {
    const agenda = async (headers: Record<string, string>) => {
      const answer = await fetch(`${server.url}/appointments`, { headers });
      expect(answer.headers.get('vary')).toBe('Accept-Encoding, Sec-CH-UA-Mobile');
      return answer.text();
    };
    const named = (wide: boolean) =>
      escaped(batchQueryUrl([...SESSION_QUERIES, ...routeQueries('/appointments', {}, { today: parisToday(), wide })]));
    expect(await agenda({ 'sec-ch-ua-mobile': '?1' })).toContain(`href="${named(false)}"`);
    expect(await agenda({ 'sec-ch-ua-mobile': '?0' })).toContain(`href="${named(true)}"`);
    expect(await agenda({})).toContain(`href="${named(true)}"`);
    expect(named(true)).not.toBe(named(false));
  });

  it('names the session’s batch for a shell page without queries of its own, and its shared files', async () => {
    const html = await (await fetch(`${server.url}/invoices/12/edit`)).text();
    expect(html).toContain(`href="${escaped(batchQueryUrl(SESSION_QUERIES))}"`);
    expect(html).toContain('href="/assets/data-layer-1.js"');
  });

  it.each(['/auth/login', '/share/0b5e4c9e-6a43-4a0e-9a43-2f1d6f3c1b11', '/preview', '/index.html'])(
    'leaves the HTML of %s as built',
    async (address) => {
      expect(await (await fetch(`${server.url}${address}`)).text()).toBe(INDEX);
    },
  );
});
