import type { IncomingHttpHeaders } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import superjson from 'superjson';
import { shellPageModule } from '../../shared/page-modules';
import { parisToday } from '../../shared/paris-date';
import { routeQueries, SESSION_QUERIES, type RouteQuery } from '../../shared/route-queries';

/** A file of the client's build as Vite's manifest lists it (dist/client/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  imports?: string[];
}
export type ClientManifest = Record<string, ManifestChunk>;

/**
 * What every shell page runs beside its own module, in the order it needs them: the data layer first (its request
 * leaves as soon as it has run), then the shell, then Zod's set-up (src/client/routes.tsx loads it with each page).
 */
const SHELL_MODULES = ['src/client/data-layer.tsx', 'src/client/layouts/main-layout.tsx', 'src/client/lib/zod-setup.ts'];

export function readClientManifest(root: string): ClientManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, '.vite', 'manifest.json'), 'utf8')) as ClientManifest;
  } catch {
    return undefined;
  }
}

/** The files of `key` and of everything it imports statically, each once, a module's imports before it. */
function staticGraph(manifest: ClientManifest, key: string, into: Set<string>, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return into;
  seen.add(key);
  for (const imported of chunk.imports ?? []) staticGraph(manifest, imported, into, seen);
  into.add(chunk.file);
  return into;
}

/**
 * The JavaScript files the shell page at `pathname` runs on its first load, beyond those the HTML already names (the
 * entry and its imports): empty for any other address (the sign-in pages, the share page, a file).
 */
export function shellPagePreloads(manifest: ClientManifest, pathname: string): string[] {
  const page = shellPageModule(pathname);
  if (!page) return [];
  const entry = staticGraph(manifest, 'index.html', new Set());
  const files = new Set<string>();
  for (const key of [...SHELL_MODULES, page]) staticGraph(manifest, key, files);
  return [...files].filter((file) => !entry.has(file));
}

/**
 * The HTML with a `modulepreload` link for each file before `</head>`: the browser fetches them beside the entry, in
 * this order, instead of discovering them once the entry has run (each a round trip on HTTP/1.1's six connections).
 */
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (files.length === 0) return html;
  const links = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
  return html.replace('</head>', `${links}  </head>`);
}

/** The GET the tRPC client's batch link sends for these queries, asked in one tick (src/client/trpc.ts). */
export function batchQueryUrl(queries: readonly RouteQuery[]): string {
  const paths = queries.map((query) => query.path).join(',');
  const inputs = Object.fromEntries(queries.map((query, index) => [index, superjson.serialize(query.input)]));
  return `/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

/**
 * Whether the browser asking is on a wide screen, as far as a request tells: a phone's Chromium says it is one
 * (`Sec-CH-UA-Mobile: ?1`, sent unasked). Other browsers say nothing and are taken as wide; a phone among them asks for
 * its agenda's day itself, and the week preloaded for it goes unused.
 */
export function wideFromHeaders(headers: IncomingHttpHeaders): boolean {
  return headers['sec-ch-ua-mobile'] !== '?1';
}

/**
 * The request the client's route loader sends first on a fresh load of the shell page at `pathname` (the session, the
 * settings, the plan and the page's own queries: src/client/route-data.ts), or undefined for any other address.
 */
export function shellPageDataUrl(pathname: string, search: URLSearchParams, wide: boolean): string | undefined {
  if (!shellPageModule(pathname)) return undefined;
  const own = routeQueries(pathname, Object.fromEntries(search), { today: parisToday(), wide });
  return batchQueryUrl([...SESSION_QUERIES, ...own]);
}

/**
 * The HTML with a preload of `url` at the top of its head: the browser asks for the page's data while it reads the
 * HTML, before any script, and the client's identical request (same address, same CORS mode) takes that answer.
 */
export function withDataPreload(html: string, url: string): string {
  const href = url.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return html.replace('<head>', `<head>\n    <link rel="preload" as="fetch" crossorigin href="${href}">`);
}
