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
import { TRPCError } from '@trpc/server';
import type { Context } from '../context';
import { appRouter } from '../routers/_app';
import { logger } from '../logger';
import { DEFAULT_BODY_LIMIT, readBody, tooLarge } from './body';
import { restRoutes } from './rest';
import { idempotencyKeyOf, requestHash, runIdempotent, type StoredHttpAnswer } from './idempotency';
import { answerRequestId, sendError, sendJsonText, WWW_AUTHENTICATE } from './respond';
import { AppError } from '../errors';
import { answerBytes, answerText } from '../kept-answers';
import { MAX_BATCH_CALLS } from '../../shared/api-limits';
import { BatchBudget } from './batch-budget';
import { type KeptAnswer, type KeptReadInput, keptAnswerFor, keptReadInputOf } from '../trpc';
import { transformer } from '../wire-transformer';
import type { SuperJSONResult } from 'superjson';
import { procedureMetasOf } from '../procedures';
import { trpcQuery } from './trpc-query';
import { BoundedMemo } from '../bounded-memo';

export const TRPC_PREFIX = '/api/trpc/';
/** The procedures whose input carries a file (a screenshot, a logo, a CSV) say so in `meta.rest.bodyLimit`. */
const BODY_LIMITS = new Map(restRoutes.flatMap((route) => (route.bodyLimit ? [[route.procedure, route.bodyLimit] as const] : [])));
const config = appRouter._def._config;
const metas = procedureMetasOf(appRouter);

/**
 * An input's wire form read back. The JSON was parsed here for this call alone, so it is read in place: the adapter's
 * transformer deep-copies it first, a copy of every input of every call (a kept answer's too) that nothing else holds.
 */
const deserialize = (wire: unknown): unknown => transformer.deserialize(wire as SuperJSONResult, { inPlace: true });

/** As tRPC's adapter reads inputs (`getInputs` in its JSON content-type handler): its errors, its messages. */
function parseInputs(text: string | undefined, isBatch: boolean, calls: number): unknown[] {
  try {
    const inputs: unknown = text === undefined ? undefined : JSON.parse(text);
    if (inputs === undefined) return [];
    if (!isBatch) return [deserialize(inputs)];
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
      throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
    const record: Record<string, unknown> = { ...inputs };
    return Array.from({ length: calls }, (_, i) => (record[i] === undefined ? undefined : deserialize(record[i])));
  } catch (cause) {
    if (cause instanceof TRPCError) throw cause;
    throw new TRPCError({ code: 'BAD_REQUEST', message: cause instanceof Error ? cause.message : 'Invalid input', cause });
  }
}

/** A call's answer in the wire format (transformed), as `answerOf` sends a success. */
const resultText = (data: unknown) => JSON.stringify(transformTRPCResponse(config, { result: { data } }));
/** The same, as the answer of a batch of one call. */
const batchText = (data: unknown) => `[${resultText(data)}]`;

function logInternal(error: TRPCError, path: string, requestId: string | undefined) {
  if (error.code === 'INTERNAL_SERVER_ERROR') logger.error(`trpc ${path}`, error.cause ?? error, requestId);
}

/**
 * /api/trpc/{path}: the typed client's door. Plain JSON queries and mutations (single or batched — all the SPA and
 * scripts send) are answered here by calling the router in-process with tRPC's own core functions, in the wire
 * Format of tRPC's HTTP adapter. That adapter cost ~0.5 ms of CPU per request here (measured in
 * `npm run bench`); anything else — streaming, subscriptions, other methods — still goes through it unchanged.
 */
export async function handleTrpc(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  makeContext: () => Context | Promise<Context>,
): Promise<void> {
  const named = pathname.slice(TRPC_PREFIX.length);
  const path = named.includes('%') ? decodeURIComponent(named) : named;
  const paths = path.split(',');
  const refusal = batchRefusal(paths.length, req.method);
  if (refusal) return sendError(res, refusal);
  let limit = DEFAULT_BODY_LIMIT;
  for (const p of paths) limit = Math.max(limit, BODY_LIMITS.get(p) ?? 0);
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
      createContext: async () => makeContext(),
      // The adapter's own answers: a 401 says how to authenticate, as every other door's does (http/respond.ts).
      responseMeta: ({ errors }) =>
        errors.some((error) => error.code === 'UNAUTHORIZED') ? { headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } } : {},
      onError: ({ error, path: p }) => logInternal(error, p ?? path, answerRequestId(res)),
    });
  }

  const type = req.method === 'GET' ? 'query' : 'mutation';
  const query = type === 'query' ? readQueryOf(search) : undefined;
  const isBatch = query ? query.isBatch : trpcQuery(search).batch === '1';
  const procedurePaths = isBatch ? paths : [path];
  const requestId = answerRequestId(res);
  let ctx: Context | undefined;
  let text: string | undefined;
  let key: string | undefined;
  let failure: unknown;
  try {
    // A query without `input` has none; a mutation's body is JSON, even empty (which is then a 400, as in tRPC).
    text = query ? query.text : (await readBody(req, limit)).toString('utf8');
    key = type === 'mutation' ? idempotencyKeyOf(req) : undefined;
    const made = makeContext();
    ctx = made instanceof Promise ? await made : made;
  } catch (cause) {
    failure = cause;
  }
  const [only] = procedurePaths;
  if (procedurePaths.length === 1 && only !== undefined && query && ctx && failure === undefined) {
    // A lone kept read's answer (alone or in a batch of one) is sent as soon as found, before any of the calls'
    // machinery is made. None kept, or a failure finding it, takes the call's own path, which answers or refuses in
    // tRPC's shape.
    const found = keptSingleRead(ctx, only, query);
    const kept = found instanceof Promise ? await found : found;
    if (kept)
      return sendJsonText(res, 200, isBatch ? answerBytes('trpcBatch', kept.data, batchText) : answerBytes('trpc', kept.data, resultText));
  }
  return answerCalls(res, { path, procedurePaths, isBatch, type, requestId, ctx, text, key, failure });
}

/** What `handleTrpc` read of a plain JSON request, for its calls. */
interface ReadRequest {
  /** The request's path after the prefix: one procedure, or a batch's, comma-separated. */
  path: string;
  procedurePaths: string[];
  isBatch: boolean;
  type: 'query' | 'mutation';
  requestId: string | undefined;
  /** The context, unless making it failed (`failure`: each call then answers that error). */
  ctx: Context | undefined;
  /** The input's JSON text, as sent. */
  text: string | undefined;
  /** A mutation's Idempotency-Key. */
  key: string | undefined;
  failure: unknown;
}

/**
 * The kept answer of a read marked `kept` (trpc.ts's keptAnswerFor), else null: the call then runs. `inputOf` reads
 * what the lookup needs of the call's input; one that does not parse is left to the call, which answers the adapter's 400.
 */
function keptAnswerOfRead(
  ctx: Context,
  path: string,
  type: 'query' | 'mutation',
  inputOf: () => KeptReadInput,
): KeptAnswer | null | Promise<KeptAnswer | null> {
  const meta = metas.get(path);
  if (!meta?.kept || type !== 'query') return null;
  let input: KeptReadInput;
  try {
    input = inputOf();
  } catch {
    return null;
  }
  return keptAnswerFor(ctx, { path, meta, type, input });
}

/** The answer of a single kept read, where one is kept for this call; else null, a failure finding it too. */
function keptSingleRead(ctx: Context, path: string, query: ReadQuery): KeptAnswer | null | Promise<KeptAnswer | null> {
  try {
    const found = keptAnswerOfRead(ctx, path, 'query', () => firstInputOf(query, path));
    return found instanceof Promise ? found.catch(() => null) : found;
  } catch {
    return null;
  }
}

/**
 * A GET's query string as this door reads it: its `batch`, its `input` text, and what finding a kept answer reads of
 * its first call's input (worked out on first use; it depends on the input alone, whichever procedure). Remembered by the
 * query string's text, as the same reads come again and again (a dashboard, a report, a list page: the kept answers'
 * whole use); decoding, parsing and checking them again was some 2 µs of every kept read (`npm run bench -- scale`).
 * A call that runs its procedure parses its own input from `text`, as before.
 */
interface ReadQuery {
  isBatch: boolean;
  text: string | undefined;
  first?: KeptReadInput | { failed: unknown };
}

const readQueries = new BoundedMemo<ReadQuery>(500, 1024);

function readQueryOf(search: string): ReadQuery {
  const known = readQueries.get(search);
  if (known) return known;
  const query = trpcQuery(search);
  return readQueries.remember(search, { isBatch: query.batch === '1', text: query.input || undefined });
}

/** What the kept lookup reads of the first call's input; throws as parsing it throws. */
function firstInputOf(query: ReadQuery, path: string): KeptReadInput {
  if (!query.first) {
    try {
      query.first = keptReadInputOf(path, parseInputs(query.text, query.isBatch, 1)[0]);
    } catch (failed) {
      query.first = { failed };
    }
  }
  if ('failed' in query.first) throw query.first.failed;
  return query.first;
}

/** Runs the request's calls, one after another, and sends their answers in tRPC's wire format. */
async function answerCalls(
  res: ServerResponse,
  { path, procedurePaths, isBatch, type, requestId, ctx, text, key, failure }: ReadRequest,
): Promise<void> {
  // Parsed by the first call that reads its input, as tRPC's adapter does: a procedure without input never sees a bad
  // body, and one that has an input gets the adapter's 400. tests/integration/trpc-fork-parity.test.ts compares both.
  let inputs: unknown[] | undefined;
  const inputAt = (index: number): unknown => {
    inputs ??= parseInputs(text, isBatch, procedurePaths.length);
    return inputs[index];
  };

  /** One call's answer, in the wire format (transformed) with the status it alone would have. */
  const answerOf = (response: TRPCResponse): StoredHttpAnswer => ({
    status: getHTTPStatusCode(response),
    body: JSON.stringify(transformTRPCResponse(config, response)),
  });

  const callOnce = async (procedurePath: string, index: number): Promise<StoredHttpAnswer> => {
    let input: unknown;
    try {
      if (failure !== undefined || ctx === undefined) throw failure;
      const found = keptAnswerOfRead(ctx, procedurePath, type, () => keptReadInputOf(procedurePath, inputAt(index)));
      const kept = found instanceof Promise ? await found : found;
      const data = kept
        ? kept.data
        : await callProcedure({
            router: appRouter,
            path: procedurePath,
            getRawInput: async () => {
              input = inputAt(index);
              return input;
            },
            ctx,
            type,
            signal: undefined,
            batchIndex: index,
          });
      // A kept answer's text is made once (kept-answers.ts); its status is 200.
      return { status: 200, body: answerText('trpc', data, resultText) };
    } catch (cause) {
      return answerOf(errorResponse(cause, { path: procedurePath, type, input, ctx, requestId }));
    }
  };

  // Not async: a call without an Idempotency-Key (every read) is its answer's own promise, with no promise around it.
  const answerCall = (procedurePath: string, index: number): Promise<StoredHttpAnswer> => {
    const session = ctx?.session;
    if (!key || !ctx || !session) return callOnce(procedurePath, index);
    return answerIdempotent(procedurePath, index, { ctx, session, key });
  };

  const answerIdempotent = async (
    procedurePath: string,
    index: number,
    { ctx, session, key }: { ctx: Context; session: NonNullable<Context['session']>; key: string },
  ): Promise<StoredHttpAnswer> => {
    let hash: string;
    try {
      hash = requestHash(inputAt(index));
    } catch {
      return callOnce(procedurePath, index); // an unreadable input: the call answers its own 400, nothing to repeat
    }
    // A repeated mutation with the same Idempotency-Key gets the first answer again (http/idempotency.ts);
    // in a batch, the one header covers each call under its procedure and index.
    const procedure = isBatch ? `trpc:${procedurePath}#${index}` : `trpc:${procedurePath}`;
    const scope = { organizationId: session.organizationId, userId: session.userId, key, procedure };
    try {
      return await runIdempotent(ctx.db, { scope, requestHash: hash }, () => callOnce(procedurePath, index));
    } catch (cause) {
      return answerOf(errorResponse(cause, { path: procedurePath, type, input: undefined, ctx, requestId }));
    }
  };
  if (!isBatch) {
    // A single call (every write, most reads): its own answer and status, with no batch to budget.
    const answer = await answerCall(path, 0);
    return sendJsonText(res, answer.status, answer.body);
  }
  // One after another, each within the batch's budget (batch-budget.ts), rather than all at once.
  const budget = new BatchBudget();
  const answers: StoredHttpAnswer[] = [];
  for (const [index, procedurePath] of procedurePaths.entries()) {
    const refusal = index > 0 ? budget.refusal() : null;
    answers.push(
      refusal
        ? answerOf(errorResponse(refusal, { path: procedurePath, type, input: undefined, ctx, requestId }))
        : await budget.spend(index === 0, () => answerCall(procedurePath, index)),
    );
  }
  const statuses = new Set(answers.map((a) => a.status));
  // As tRPC's getHTTPStatusCode: one status for all calls, else 207.
  const status = statuses.size === 1 ? (answers[0]?.status ?? 200) : 207;
  sendJsonText(res, status, `[${answers.map((a) => a.body).join(',')}]`);
}

/**
 * One request once asked for 600 copies of a 2,000-line invoice and held the server for two minutes. A
 * batch holds at most MAX_BATCH_CALLS calls, and writes go one per request — each its own action, key and answer.
 * Refused before anything is read or run, so a hostile batch costs nothing.
 */
function batchRefusal(calls: number, method: string | undefined): AppError | null {
  if (calls > MAX_BATCH_CALLS)
    return new AppError('BAD_REQUEST', `Trop d’appels dans un même lot (${calls}) : ${MAX_BATCH_CALLS} au plus par requête`);
  if (calls > 1 && method !== 'GET') return new AppError('BAD_REQUEST', 'Les modifications s’envoient une par requête, pas en lot');
  return null;
}

function errorResponse(
  cause: unknown,
  {
    path,
    type,
    input,
    ctx,
    requestId,
  }: { path: string; type: 'query' | 'mutation'; input: unknown; ctx: Context | undefined; requestId: string | undefined },
): TRPCResponse {
  const error = getTRPCErrorFromUnknown(cause);
  logInternal(error, path, requestId);
  return { error: getErrorShape({ config, error, type, path, input, ctx }) };
}
