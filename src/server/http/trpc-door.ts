import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import {
  callProcedure,
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  type TRPCResponse,
} from '@trpc/server/unstable-core-do-not-import';
import type { TRPCError } from '@trpc/server';
import type { Context } from '../context';
import { appRouter } from '../routers/_app';
import { logger } from '../logger';
import { AppError } from '../errors';
import { DEFAULT_BODY_LIMIT, readJsonBody, tooLarge } from './body';
import { restRoutes } from './rest';
import { sendError, sendJson } from './respond';

export const TRPC_PREFIX = '/api/trpc/';
/** The procedures whose input carries a file (a screenshot, a logo, a CSV) say so in `meta.rest.bodyLimit`. */
const BODY_LIMITS = new Map(restRoutes.flatMap((route) => (route.bodyLimit ? [[route.procedure, route.bodyLimit] as const] : [])));
const config = appRouter._def._config;

function deserializeInput(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  try {
    return config.transformer.input.deserialize(raw);
  } catch {
    throw new AppError('BAD_REQUEST', 'Requête invalide : données illisibles');
  }
}

function logInternal(error: TRPCError, path: string) {
  if (error.code === 'INTERNAL_SERVER_ERROR') logger.error(`trpc ${path}`, error.cause ?? error);
}

/**
 * /api/trpc/{path}: the typed client's door. Plain JSON queries and mutations (single or batched — all the SPA and
 * scripts send) are answered here by calling the router in-process with tRPC's own core functions, in the wire
 * format of tRPC's HTTP adapter. That adapter cost ~0.5 ms of CPU per request here (STACK.md trap 1; measured in
 * `npm run bench`); anything else — streaming, subscriptions, other methods — still goes through it unchanged.
 */
export async function handleTrpc(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  makeContext: () => Promise<Context>,
): Promise<void> {
  const path = decodeURIComponent(pathname.slice(TRPC_PREFIX.length));
  const paths = path.split(',');
  const limit = Math.max(DEFAULT_BODY_LIMIT, ...paths.map((p) => BODY_LIMITS.get(p) ?? 0));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return sendError(res, tooLarge(limit));

  const plainJson = (req.method === 'GET' || req.method === 'POST') && req.headers['trpc-accept'] === undefined;
  if (!plainJson) {
    return nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path,
      maxBodySize: limit,
      createContext: () => makeContext(),
      onError: ({ error, path: p }) => logInternal(error, p ?? path),
    });
  }

  const query = new URLSearchParams(search);
  const isBatch = query.get('batch') === '1';
  const type = req.method === 'GET' ? 'query' : 'mutation';
  let ctx: Context | undefined;
  let rawInputs: unknown;
  let failure: unknown;
  try {
    if (type === 'query') {
      const input = query.get('input');
      rawInputs = input === null ? undefined : JSON.parse(input);
    } else {
      rawInputs = await readJsonBody(req, limit);
    }
    ctx = await makeContext();
  } catch (cause) {
    // A bad body or query fails every call of the batch with the same error, as tRPC's adapter does.
    failure = cause instanceof SyntaxError ? new AppError('PARSE_ERROR', 'Le corps de la requête n’est pas un JSON valide') : cause;
  }

  const calls = (isBatch ? paths : [path]).map(async (procedurePath, index): Promise<TRPCResponse> => {
    let input: unknown;
    try {
      if (failure !== undefined || ctx === undefined) throw failure;
      input = deserializeInput(isBatch ? (rawInputs as Record<string, unknown> | null | undefined)?.[index] : rawInputs);
      const data = await callProcedure({
        router: appRouter,
        path: procedurePath,
        getRawInput: async () => input,
        ctx,
        type,
        signal: undefined,
        batchIndex: index,
      });
      return { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      logInternal(error, procedurePath);
      return { error: getErrorShape({ config, error, type, path: procedurePath, input, ctx }) };
    }
  });
  const responses = await Promise.all(calls);
  const untransformed = isBatch ? responses : responses[0]!;
  sendJson(res, getHTTPStatusCode(untransformed), transformTRPCResponse(config, untransformed));
}
