// A shell page's HTML names its first files and its first data request: the request must be the very one the client's
// batch link sends for the same queries (else the browser asks twice), and the files those the page runs.
import fs from 'node:fs';
import path from 'node:path';
import { createTRPCUntypedClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { SHELL_PAGE_MODULES, shellPageModule } from '../../src/shared/page-modules';
import { routeQueries, SESSION_QUERIES, type RouteQuery } from '../../src/shared/route-queries';
import {
  batchQueryUrl,
  type ClientManifest,
  shellPageDataUrl,
  wideFromHeaders,
  shellPagePreloads,
  withDataPreload,
  withModulePreloads,
} from '../../src/server/http/spa-preloads';
import { MAX_BATCH_CALLS } from '../../src/shared/api-limits';
import { defined } from '../../src/shared/defined';

/** The address the client's batch link (as src/client/trpc.ts sets it up) asks for these queries, sent in one tick. */
async function clientUrl(queries: readonly RouteQuery[]): Promise<string> {
  const asked: string[] = [];
  const client = createTRPCUntypedClient({
    links: [
      httpBatchLink({
        url: '/api/trpc',
        transformer: superjson,
        maxItems: MAX_BATCH_CALLS,
        fetch: async (url) => {
          asked.push(String(url));
          return new Response('[]', { status: 500 });
        },
      }),
    ],
  });
  await Promise.allSettled(queries.map((query) => client.query(query.path, query.input)));
  expect(asked).toHaveLength(1);
  return asked[0] as string;
}

const viewer = { today: '2026-11-29', wide: true };

describe('the data request named in a shell page’s HTML', () => {
  it.each([
    ['/', {}],
    ['/invoices', { status: 'late', page: '2' }],
    ['/customers', { search: 'Martin' }],
    ['/items', {}],
    ['/expenses', { period: 'custom', from: '2026-01-01', to: '2026-03-31' }],
    ['/appointments', { view: 'month' }],
    ['/reports', {}],
    ['/settings/general', {}],
    ['/settings/document', {}],
  ])('%s %o: the client’s own batch, to the character', async (pathname, query) => {
    const queries = [...SESSION_QUERIES, ...routeQueries(pathname, query, viewer)];
    expect(batchQueryUrl(queries)).toBe(await clientUrl(queries));
  });

  it('is asked for every shell page, and for no other address', () => {
    expect(shellPageDataUrl('/invoices', new URLSearchParams('page=2'), true)).toContain(
      'auth.me,settings.get,subscription.get,documents.list',
    );
    expect(shellPageDataUrl('/customers/12', new URLSearchParams(), true)).toContain('auth.me,settings.get,subscription.get?');
    for (const other of ['/auth/login', '/share/8f0c', '/preview', '/404', '/nowhere']) {
      expect(shellPageDataUrl(other, new URLSearchParams(), true)).toBeUndefined();
    }
  });

  it('names the agenda’s week for a wide screen and its day for a phone that says it is one', () => {
    const range = (wide: boolean) => {
      const url = decodeURIComponent(defined(shellPageDataUrl('/appointments', new URLSearchParams(), wide), 'url'));
      const input = JSON.parse(url.slice(url.indexOf('input=') + 'input='.length)) as Record<
        string,
        { json: { from: string; to: string } }
      >;
      const { from, to } = defined(input['3'], 'input 3').json;
      return (Date.parse(to) - Date.parse(from)) / 86_400_000;
    };
    expect(range(true)).toBe(6);
    expect(range(false)).toBe(0);
    expect(wideFromHeaders({ 'sec-ch-ua-mobile': '?1' })).toBe(false);
    expect(wideFromHeaders({ 'sec-ch-ua-mobile': '?0' })).toBe(true);
    expect(wideFromHeaders({})).toBe(true);
  });

  it('goes first in the head, its address escaped for the attribute', () => {
    const html = withDataPreload('<html><head>\n<title>x</title></head></html>', '/api/trpc/a,b?batch=1&input=%7B%7D');
    expect(html).toContain(
      '<head>\n    <link rel="preload" as="fetch" crossorigin href="/api/trpc/a,b?batch=1&amp;input=%7B%7D">\n<title>',
    );
  });
});

describe('the files named in a shell page’s HTML', () => {
  const manifest: ClientManifest = {
    'index.html': { file: 'assets/index.js', imports: ['_ui-core.js'] },
    '_ui-core.js': { file: 'assets/ui-core.js' },
    '_trpc.js': { file: 'assets/trpc.js', imports: ['index.html', '_ui-core.js'] },
    'src/client/data-layer.tsx': { file: 'assets/data-layer.js', imports: ['_trpc.js', 'index.html'] },
    'src/client/layouts/main-layout.tsx': { file: 'assets/main-layout.js', imports: ['_kit.js'] },
    '_kit.js': { file: 'assets/kit.js', imports: ['_ui-core.js'] },
    'src/client/lib/zod-setup.ts': { file: 'assets/zod-setup.js' },
    'src/client/routes/customers/customers-page.tsx': { file: 'assets/customers-page.js', imports: ['_kit.js', '_table.js'] },
    '_table.js': { file: 'assets/table.js' },
  };

  it('are the data layer’s, the shell’s and the page’s, each once, imports first, without those the HTML names', () => {
    expect(shellPagePreloads(manifest, '/customers')).toEqual([
      'assets/trpc.js',
      'assets/data-layer.js',
      'assets/kit.js',
      'assets/main-layout.js',
      'assets/zod-setup.js',
      'assets/table.js',
      'assets/customers-page.js',
    ]);
    expect(shellPagePreloads(manifest, '/auth/login')).toEqual([]);
  });

  it('go before the end of the head', () => {
    expect(withModulePreloads('<head><title>x</title></head>', ['assets/a.js'])).toBe(
      '<head><title>x</title>    <link rel="modulepreload" crossorigin href="/assets/a.js">\n  </head>',
    );
  });
});

describe('the shell pages’ table', () => {
  const routesSource = fs.readFileSync(path.resolve(import.meta.dirname, '../../src/client/routes.tsx'), 'utf8');

  it('names files the client’s routes import', () => {
    for (const module of new Set(Object.values(SHELL_PAGE_MODULES))) {
      expect(fs.existsSync(path.resolve(import.meta.dirname, '../..', module)), module).toBe(true);
      const specifier = `import('./${module.replace('src/client/', '').replace(/\.tsx?$/, '')}')`;
      expect(routesSource, module).toContain(specifier);
    }
  });

  it('matches a pattern’s parameter to one non-empty segment, a fixed address first', () => {
    expect(shellPageModule('/customers/12')).toBe('src/client/routes/customers/customer-detail-page.tsx');
    expect(shellPageModule('/invoices/new/add')).toBe('src/client/routes/documents/editor/document-editor-page.tsx');
    expect(shellPageModule('/expenses/recurring')).toBe('src/client/routes/expenses/recurring-expenses-page.tsx');
    expect(shellPageModule('/customers/')).toBeUndefined();
    expect(shellPageModule('/customers/12/more')).toBeUndefined();
  });
});
