import { SENDER_CONFIRM_PREFIX } from './sender-confirmation';
import { sql } from 'kysely';
import type { Db } from '../db/connection';
import { isPostgresUrl } from '../db/dialect';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Env } from '../env';
import { AppError } from '../errors';
import { renderMetrics } from '../metrics';
import { proceduresOf } from '../procedures';
import { appRouter } from '../routers/_app';
import { LOGO_URL_PREFIX } from '../services/organization';
import { DOWNLOAD_PREFIX } from './download';
import { sendError } from './respond';
import { findRestRoutes } from './rest';
import { isMalformedPath } from './security-headers';
import { TRPC_PREFIX } from './trpc-door';
import { BoundedMemo } from '../bounded-memo';

export const METRICS_PATH = '/metrics';

const PROCEDURES = new Set(proceduresOf(appRouter).map((p) => p.path));

/**
 * The metrics label of a request: the REST template (`/api/documents/{id}`), the tRPC procedure, or the kind of file.
 * Never the raw path, whose ids and typos would make a series per request.
 */
export function routeLabel(pathname: string): string {
  return labels.get(pathname) ?? labels.remember(pathname, labelOf(pathname));
}

/** The labels of the paths last requested (every request asks for its own, after its answer); paths holding ids are many. */
const labels = new BoundedMemo<string>(2000);

function labelOf(pathname: string): string {
  if (pathname.startsWith(TRPC_PREFIX)) {
    const names = pathname.slice(TRPC_PREFIX.length).split(',');
    if (names.length > 1) return 'trpc:batch';
    return PROCEDURES.has(names[0] ?? '') ? `trpc:${names[0]}` : 'trpc:unknown';
  }
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    // A malformed %-escape makes the matcher's decodeURIComponent throw: such a request was answered 400, label it so.
    if (isMalformedPath(pathname)) return 'api:malformed';
    return findRestRoutes(pathname)?.routes[0]?.path ?? 'api:unknown';
  }
  if (pathname.startsWith(DOWNLOAD_PREFIX)) return `${DOWNLOAD_PREFIX}{uuid}`;
  if (pathname.startsWith(LOGO_URL_PREFIX)) return `${LOGO_URL_PREFIX}{file}`;
  if (pathname === METRICS_PATH) return METRICS_PATH;
  if (pathname.startsWith(SENDER_CONFIRM_PREFIX)) return `${SENDER_CONFIRM_PREFIX}{token}`;
  return 'client';
}

/** A caller's `X-Request-Id` is kept when it is a plain token (a proxy's id ties the logs together); else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
}

const digest = (text: string) => createHash('sha256').update(text).digest();

async function databaseBytes(databasePath: string, db: Db): Promise<number | null> {
  if (databasePath === ':memory:') return null;
  if (isPostgresUrl(databasePath)) {
    try {
      const { rows } = await sql<{ n: string | number }>`select pg_database_size(current_database()) as n`.execute(db);
      return Number(rows[0]?.n ?? 0);
    } catch {
      return null; // a database that does not answer: the health path says so, the metrics still answer
    }
  }
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return size(databasePath) + size(`${databasePath}-wal`);
}

/**
 * GET /metrics for Prometheus, behind `METRICS_TOKEN` (Authorization: Bearer): the figures say how busy the
 * business is, so they are not public. Without a token configured the path does not exist.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, env: Env, db: Db): Promise<void> {
  if (!env.metricsToken) {
    sendError(res, new AppError('NOT_FOUND', 'Ressource introuvable'));
    return;
  }
  const header = req.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  // Compared as digests: equal lengths for timingSafeEqual, and no timing clue about the token's length.
  if (!given || !timingSafeEqual(digest(given), digest(env.metricsToken))) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    sendError(res, new AppError('UNAUTHORIZED', 'Jeton de métriques absent ou invalide (Authorization: Bearer METRICS_TOKEN)'));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET');
    sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
    return;
  }
  const body = renderMetrics({ databaseBytes: await databaseBytes(env.databasePath, db) });
  res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
