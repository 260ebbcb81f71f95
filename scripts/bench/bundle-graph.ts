// Which JavaScript files each page of the built client downloads, from Vite's manifest (dist/client/.vite/manifest.json).
// Pure: the manifest and a file-size function come in, rows come out — tests/unit/bundle-graph.test.ts feeds it a small one.

/** The part of a Vite manifest entry this report reads. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The shell's chunk, downloaded with every page drawn inside the app's layout (src/client/app.tsx). Its global overlays
 * (components/global-overlays.tsx) are not counted: they download when the browser is idle or when first opened.
 */
export const SHELL_MODULES = ['src/client/layouts/main-layout.tsx'];
/** The data layer (tRPC client, TanStack Query, superjson, the session guard): every page but the login page needs it. */
export const DATA_LAYER = 'src/client/data-layer.tsx';
/** Zod's French set-up, loaded beside every page but the sign-in forms (routes.tsx's two `lazyPage`s). */
export const ZOD_SETUP = 'src/client/lib/zod-setup.ts';
/** Pages drawn without the shell (their own layout or none): sign-in pages, public share and preview, the error page. */
const OUTSIDE_SHELL = /^src\/client\/routes\/(auth|share|preview|system)\//;
/** The sign-in forms, which check their input with Zod only once submitted (routes/auth/load-validation.ts). */
const SIGN_IN_FORMS = /^src\/client\/routes\/auth\/(login|register|forgot-password|reset-password|verify-email)-page\./;
/** The one page that posts through a plain REST door, without the data layer (routes.tsx's `plainFetch`). */
const PLAIN_FETCH = /^src\/client\/routes\/auth\/login-page\./;

/** Every .js file a chunk needs before it runs: itself and its static imports, recursively (not its dynamic ones). */
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Le manifeste ne contient pas ${key}`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const child of chunk.imports ?? []) visit(child);
  };
  for (const key of keys) visit(key);
  return files;
}

export interface PageRow {
  /** The page's source module, e.g. src/client/routes/auth/login-page.tsx. */
  page: string;
  /** Its own chunk, gzip bytes. */
  own: number;
  /** What the route adds to the entry's files: the page's chunks and, inside the app, the shell's; gzip bytes. */
  route: number;
  /** All the JavaScript the page needs when opened first (entry + shell if any + page), gzip bytes. */
  firstLoad: number;
  files: number;
}

export interface BundleReport {
  rows: PageRow[];
  largestChunk: { file: string; gzip: number };
  totalJs: number;
}

export function bundleReport(manifest: Manifest, gzipSize: (file: string) => number): BundleReport {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('Le manifeste n’a pas de point d’entrée');
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gzipSize(file), 0);
  const entryFiles = staticClosure(manifest, [entry[0]]);
  // The pages are what the entry imports on demand (routes.tsx); the shell and other lazy parts are counted with them.
  const pages = new Set((entry[1].dynamicImports ?? []).filter((key) => key.startsWith('src/client/routes/')));
  const rows = Object.entries(manifest)
    .filter(([key]) => pages.has(key))
    .map(([key, chunk]) => {
      const needs = [
        entry[0],
        ...(OUTSIDE_SHELL.test(key) ? [] : SHELL_MODULES),
        ...(PLAIN_FETCH.test(key) ? [] : [DATA_LAYER]),
        ...(SIGN_IN_FORMS.test(key) ? [] : [ZOD_SETUP]),
        key,
      ].filter((module) => manifest[module]);
      const files = staticClosure(manifest, needs);
      const added = [...files].filter((file) => !entryFiles.has(file));
      return { page: key, own: gzipSize(chunk.file), route: sum(added), firstLoad: sum(files), files: files.size };
    })
    .sort((a, b) => a.page.localeCompare(b.page));
  const allJs = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((file) => file.endsWith('.js'));
  const largest = allJs.map((file) => ({ file, gzip: gzipSize(file) })).sort((a, b) => b.gzip - a.gzip)[0];
  return { rows, largestChunk: largest ?? { file: '', gzip: 0 }, totalJs: sum(allJs) };
}
