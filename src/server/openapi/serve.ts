import type { ServerResponse } from 'node:http';
import { restRoutes } from '../http/rest';
import { APP_VERSION } from '../build-info';
import { buildOpenApiDocument } from './document';

// Built from the code's routes, the same in every process: kept per process.
let cached: string | undefined;

/**
 * GET /api/openapi.json, no session. Built on the first request, not at start (it takes ~0.2 s and the
 * server starts in ~0.4 s), then served from memory: the procedures cannot change while the process runs.
 */
export function serveOpenApi(res: ServerResponse): void {
  cached ??= JSON.stringify(buildOpenApiDocument(restRoutes, APP_VERSION));
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(cached),
    'Cache-Control': 'no-cache',
  });
  res.end(cached);
}
