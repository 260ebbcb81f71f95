import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Context } from '../context';
import { appRouter } from '../routers/_app';
import { logger } from '../logger';
import { DEFAULT_BODY_LIMIT, FEEDBACK_BODY_LIMIT, tooLarge } from './body';
import { sendError } from './respond';

export const TRPC_PREFIX = '/api/trpc/';

/** /api/trpc/{path}: tRPC's own HTTP protocol (batching, superjson), for the typed client of the SPA and scripts. */
export async function handleTrpc(req: IncomingMessage, res: ServerResponse, pathname: string, makeContext: () => Promise<Context>) {
  const path = decodeURIComponent(pathname.slice(TRPC_PREFIX.length));
  const limit = path.split(',').includes('feedback.send') ? FEEDBACK_BODY_LIMIT : DEFAULT_BODY_LIMIT;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return sendError(res, tooLarge(limit));
  await nodeHTTPRequestHandler({
    router: appRouter,
    req,
    res,
    path,
    maxBodySize: limit,
    createContext: () => makeContext(),
    onError: ({ error, path: procedure }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') logger.error(`trpc ${procedure ?? '?'}`, error.cause ?? error);
    },
  });
}
