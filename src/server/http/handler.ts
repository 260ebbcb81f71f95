import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type AppDeps } from '../context';
import { logger, requestScope } from '../logger';
import { metrics, secondsSince } from '../metrics';
import { METRICS_PATH, requestIdOf, routeLabel, serveMetrics } from './observability';
import { AppError } from '../errors';
import { isForeignOrigin } from './origin';
import { findRestRoutes, handleRest } from './rest';
import { handleTrpc, TRPC_PREFIX } from './trpc-door';
import { sendError } from './respond';
import { LOGO_URL_PREFIX } from '../services/organization';
import { serveLogo } from './uploads';
import { DOWNLOAD_PREFIX, serveDownload } from './download';
import type { PdfDeps } from '../pdf/document-pdf';
import { OPENAPI_PATH } from '../openapi/document';
import { serveOpenApi } from '../openapi/serve';
import { isMalformedPath, securityHeadersOf } from './security-headers';
import type { AppResponse } from './app-response';
import { clientIp, rateLimitKeyOf } from '../net/client-ip';
import { CARD_WEBHOOK_PREFIX, handleCardWebhook, handlePaymentWebhook, STRIPE_WEBHOOK_PATH } from './payment-webhook';
import type { RequestDrain } from './drain';
import { SENDER_CONFIRM_PREFIX, serveSenderConfirmation } from './sender-confirmation';

const isRead = (method: string | undefined) => method === 'GET' || method === 'HEAD';

/**
 * The request's metrics and log line, once its answer has ended (AppResponse's `onEnd`): one function for every answer,
 * reading what `serve` noted on it, rather than closures made per request.
 */
function recordAnswer(res: AppResponse): void {
  // After the answer, outside the request's try: whatever goes wrong here must not take the process down.
  try {
    const seconds = secondsSince(res.startedAt);
    const { pathname, statusCode } = res;
    const method = res.req.method;
    const route = routeLabel(pathname);
    metrics.requests.observe({ route, method: method ?? 'GET', status: statusClass(statusCode) }, seconds);
    if (logger.enabled()) {
      logger.info({
        request_id: res.requestId,
        method,
        // The confirmation link's token is a secret: its route stands for the path.
        path: pathname.startsWith(SENDER_CONFIRM_PREFIX) ? route : pathname,
        route,
        status: statusCode,
        ms: Math.round(seconds * 10_000) / 10,
      });
    }
  } catch (error) {
    logger.error('request metrics not recorded', error);
  }
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
/** `2xx` for 204: the metrics' label, one string per class rather than one made per request. */
const statusClass = (status: number) => STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;

export type ClientHandler = (req: IncomingMessage, res: ServerResponse, pathname: string) => void;

/** The whole HTTP surface: /api/trpc, the REST doors, then the SPA (built files, or Vite in development). */
export function createRequestHandler(deps: AppDeps, serveClient: ClientHandler, pdf?: PdfDeps, drain?: RequestDrain) {
  const everyAnswer = securityHeadersOf({ https: deps.env.appUrl.startsWith('https://'), development: deps.env.nodeEnv === 'development' });
  const answered = drain
    ? (res: AppResponse) => {
        drain.answered(res);
        recordAnswer(res);
      }
    : recordAnswer;
  return function handle(req: IncomingMessage, res: AppResponse): Promise<void> {
    const requestId = requestIdOf(req);
    // Sent with the status line, whichever door answers (app-response.ts), before any route runs.
    res.requestId = requestId;
    res.everyAnswer = everyAnswer;
    res.startedAt = performance.now();
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    res.pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    res.onEnd = answered;
    res.drain = drain;
    // Only a write carries its id in an async scope (logger.ts): a read's lines are the doors' own, which name it.
    const run = isRead(req.method) ? () => serve(req, res) : () => requestScope.run({ requestId }, () => serve(req, res));
    return drain ? drain.track(res, run) : run();
  };

  async function serve(req: IncomingMessage, res: AppResponse): Promise<void> {
    const { pathname } = res;
    const search = (req.url ?? '/').slice(pathname.length);

    try {
      if (isMalformedPath(pathname)) return sendError(res, new AppError('BAD_REQUEST', 'Adresse mal formée : un code %XX ne se lit pas'));
      if (pathname === '/api' || pathname.startsWith('/api/')) {
        if (isForeignOrigin(req, deps.env.appUrl)) {
          return sendError(res, new AppError('FORBIDDEN', 'Requête refusée : elle vient d’un autre site que Facturier'));
        }
        if (pathname.startsWith(OPENAPI_PATH) && pathname.replace(/\/+$/, '') === OPENAPI_PATH) {
          if (req.method === 'GET' || req.method === 'HEAD') return serveOpenApi(res);
          res.setHeader('Allow', 'GET');
          return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
        }
        if (pathname === STRIPE_WEBHOOK_PATH) return await handlePaymentWebhook(deps, req, res);
        if (pathname.startsWith(CARD_WEBHOOK_PREFIX)) return await handleCardWebhook(deps, req, res, pathname);
        const makeContext = () => createContext(deps, req, res);
        if (pathname.startsWith(TRPC_PREFIX)) return await handleTrpc(req, res, pathname, search, makeContext);
        const routes = findRestRoutes(pathname);
        if (routes) return await handleRest(routes, req, res, search, makeContext);
        return sendError(res, new AppError('NOT_FOUND', 'Ressource introuvable'));
      }
      if (pathname === METRICS_PATH) return await serveMetrics(req, res, deps.env, deps.db);
      if (pathname.startsWith(LOGO_URL_PREFIX)) return serveLogo(req, res, pathname, deps.env.dataDir);
      if (pdf && pathname.startsWith(DOWNLOAD_PREFIX) && (req.method === 'GET' || req.method === 'HEAD')) {
        const ip = clientIp(req, deps.env.trustedProxies);
        if (!(await deps.rateLimits.pdfDownloadsByIp.take(rateLimitKeyOf(ip))))
          return sendError(res, new AppError('TOO_MANY_REQUESTS', 'Trop de PDF demandés en une minute : réessayez dans un instant'));
        return await serveDownload(req, res, pathname, { db: deps.db, dataDir: deps.env.dataDir, ...pdf });
      }
      if (pathname.startsWith(SENDER_CONFIRM_PREFIX) && (req.method === 'GET' || req.method === 'HEAD')) {
        return await serveSenderConfirmation(res, pathname, { db: deps.db, appUrl: deps.env.appUrl });
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
      }
      serveClient(req, res, pathname);
    } catch (error) {
      // Last line of defence: whatever went wrong, answer once and keep the process alive.
      if (!res.headersSent) sendError(res, error);
      else res.destroy();
    }
  }
}
