import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type ClientManifest,
  readClientManifest,
  shellPageDataUrl,
  shellPagePreloads,
  wideFromHeaders,
  withDataPreload,
  withModulePreloads,
} from './spa-preloads';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);

interface CachedFile {
  mtimeMs: number;
  body: Buffer;
  gzip: Buffer | null;
  type: string;
}

/**
 * Serves the built SPA from memory (the whole build is a few MB), gzip-compressed once per file version.
 * Hashed assets under /assets/ are immutable; index.html is revalidated so a new build is picked up at once.
 * Any other GET path that is not a file gets index.html: the client router owns it (history fallback), with, for a
 * page of the app's shell, the files that page runs named for the browser to fetch at once (spa-preloads.ts).
 */
export function createStaticHandler(root: string) {
  // The built client's files, per process: each process serves the same build, re-read when a file's mtime changes.
  const cache = new Map<string, CachedFile>();

  function load(file: string): CachedFile | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit;
    const body = fs.readFileSync(file);
    const ext = path.extname(file).toLowerCase();
    const entry: CachedFile = {
      mtimeMs: stat.mtimeMs,
      body,
      gzip: COMPRESSIBLE.has(ext) && body.length > 1024 ? zlib.gzipSync(body, { level: 9 }) : null,
      type: TYPES[ext] ?? 'application/octet-stream',
    };
    cache.set(file, entry);
    return entry;
  }

  // The build's manifest, read again with each new index.html, and the HTML of each shell page built from both once.
  let build: { indexMtimeMs: number; manifest: ClientManifest | undefined } | undefined;
  const pageIndexes = new Map<string, CachedFile>();

  function indexFor(pathname: string, index: CachedFile): CachedFile {
    if (build?.indexMtimeMs !== index.mtimeMs) {
      build = { indexMtimeMs: index.mtimeMs, manifest: readClientManifest(root) };
      pageIndexes.clear();
    }
    const files = build.manifest ? shellPagePreloads(build.manifest, pathname) : [];
    if (files.length === 0) return index;
    // Keyed by the files, not the address: the pages of one module (every document's editor) share one entry.
    const key = files.join('\n');
    let page = pageIndexes.get(key);
    if (!page) {
      const body = Buffer.from(withModulePreloads(index.body.toString('utf8'), files));
      page = { ...index, body, gzip: zlib.gzipSync(body, { level: 9 }) };
      pageIndexes.set(key, page);
    }
    return page;
  }

  /** The page's HTML with its data request named first (spa-preloads.ts): built per request, the inputs follow the address. */
  function withPageData(req: IncomingMessage, pathname: string, page: CachedFile): CachedFile {
    const url = shellPageDataUrl(pathname, new URL(req.url ?? '/', 'http://localhost').searchParams, wideFromHeaders(req.headers));
    if (!url) return page;
    const body = Buffer.from(withDataPreload(page.body.toString('utf8'), url));
    return { ...page, body, gzip: zlib.gzipSync(body) };
  }

  function send(req: IncomingMessage, res: ServerResponse, entry: CachedFile, cacheControl: string) {
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = acceptsGzip && entry.gzip ? entry.gzip : entry.body;
    res.statusCode = 200;
    res.setHeader('Content-Type', entry.type);
    res.setHeader('Cache-Control', cacheControl);
    // A page's HTML names the data of the screen it guesses (spa-preloads.ts wideFromHeaders).
    res.setHeader('Vary', entry.type.startsWith('text/html') ? 'Accept-Encoding, Sec-CH-UA-Mobile' : 'Accept-Encoding');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (body === entry.gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    const relative = path.normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
    const file = path.join(root, relative);
    if (file.startsWith(root + path.sep) && !relative.startsWith('..')) {
      const entry = load(file);
      if (entry) {
        const immutable = relative.startsWith(`assets${path.sep}`);
        send(req, res, entry, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        return;
      }
    }
    if (path.extname(relative) !== '' && relative !== 'index.html') {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Fichier introuvable');
      return;
    }
    const index = load(path.join(root, 'index.html'));
    if (!index) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('L’interface n’est pas construite : lancez « npm start » (qui la construit) ou « npm run build ».');
      return;
    }
    send(req, res, withPageData(req, pathname, indexFor(pathname, index)), 'no-cache');
  };
}
