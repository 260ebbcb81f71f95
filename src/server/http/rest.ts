import type { IncomingMessage, ServerResponse } from 'node:http';
import { callProcedure } from '@trpc/server/unstable-core-do-not-import';
import type { Context } from '../context';
import { appRouter } from '../routers/_app';
import { AppError } from '../errors';
import { DEFAULT_BODY_LIMIT, readJsonBody } from './body';
import { idempotencyKeyOf, requestHash, runIdempotent, type StoredHttpAnswer } from './idempotency';
import { answerRequestId, errorAnswer, sendError, sendJsonText } from './respond';
import { answerBytes, answerText } from '../kept-answers';
import { sendFile, sendInlineFile } from './file-answer';
import { compileRestRoutes, restRoutesOf, type RestMatch, type RestRoute } from './rest-routes';
import { type KeptReadInput, keptAnswerFor, keptReadInputOf } from '../trpc';
import { procedureMetasOf } from '../procedures';
import { BoundedMemo } from '../bounded-memo';

/**
 * REST paths, each one door onto the same tRPC procedure as /api/trpc (one procedure, two doors). The
 * doors are read from the procedures' `meta.rest` once, at start: the procedure validates input and shapes output;
 * its metadata only says where the input comes from.
 */
export const restRoutes = restRoutesOf(appRouter);
export const findRestRoutes = compileRestRoutes(restRoutes);
const metas = procedureMetasOf(appRouter);

function queryInput(search: string): Record<string, string> | undefined {
  if (search === '' || search === '?') return undefined;
  return Object.fromEntries(new URLSearchParams(search));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const toJson = (answer: unknown) => JSON.stringify(answer);

/** Whether the door reads a JSON body for this route: a POST or PUT whose procedure has an input. */
const readsBody = (route: RestRoute) => route.takesInput && (route.method === 'POST' || route.method === 'PUT');

/**
 * The procedure's input: the path parameters, with the query string (GET, or `meta.rest.query`) and the JSON body
 * (spread, or under `bodyKey`). A body alone is passed as sent, so a body that is not an object gets the schema's own
 * 400. The path parameters are spread last: a query or body cannot name another record than the path does.
 * Synchronous: the body, if any, is read before (a read, most requests, then waits for nothing).
 */
function inputOf(route: RestRoute, params: Record<string, string>, search: string, body: unknown): unknown {
  const query = route.method === 'GET' || route.query ? queryInput(search) : undefined;
  if (route.bodyKey) return { ...query, [route.bodyKey]: body, ...params };
  if (route.params.length === 0 && query === undefined) return body;
  if (route.params.length === 0 && body === undefined) return query;
  return { ...query, ...(isRecord(body) ? body : {}), ...params };
}

/**
 * What finding a kept answer reads of a GET's input (trpc.ts's KeptReadInput), remembered by the request's URL, which
 * alone makes that input (its path parameters and query string): the same reads come again and again, and reading the
 * query string, checking and keying its input again was a few microseconds of every kept read (`npm run bench -- scale`).
 * A call that runs its procedure reads its own input.
 */
function keptGetInputOf(route: RestRoute, params: Record<string, string>, search: string, url: string): KeptReadInput {
  return keptGetInputs.get(url) ?? keptGetInputs.remember(url, keptReadInputOf(route.procedure, inputOf(route, params, search, undefined)));
}

const keptGetInputs = new BoundedMemo<KeptReadInput>(500, 1024);

/**
 * Whether a file door answers JSON this time: only where the procedure allows it and the Accept header names
 * `application/json` without naming the file's own type (curl, a browser, or an Accept of any type get the file).
 */
export function wantsJsonInstead(file: NonNullable<RestRoute['file']>, req: Pick<IncomingMessage, 'headers'>): boolean {
  if (!('jsonWhenAsked' in file) || !file.jsonWhenAsked) return false;
  const types = (req.headers.accept ?? '')
    .split(',')
    .map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter((type) => type !== '');
  return types.includes('application/json') && !types.includes(file.contentType);
}

/** A file answer (`meta.rest.file`, GET only): sent as the file, never stored for idempotency. */
async function sendFileAnswer(
  route: RestRoute,
  file: NonNullable<RestRoute['file']>,
  res: ServerResponse,
  input: unknown,
  makeContext: () => Context | Promise<Context>,
): Promise<void> {
  const answer = await callProcedure({
    router: appRouter,
    path: route.procedure,
    getRawInput: async () => input,
    ctx: await makeContext(),
    type: route.type,
    signal: undefined,
    batchIndex: 0,
  });
  if ('inline' in file) sendInlineFile(res, answer);
  else sendFile(res, file, answer);
}

/** The route for this method (HEAD is answered as GET), if the path has one. */
function routeFor(candidates: RestRoute[], method: string | undefined): RestRoute | undefined {
  for (const r of candidates) if (r.method === method || (method === 'HEAD' && r.method === 'GET')) return r;
  return undefined;
}

/** A procedure's answer as the REST door sends it: its status (`meta.rest`) and its JSON. */
function restAnswer(route: RestRoute, answer: unknown): StoredHttpAnswer {
  return { status: restStatus(route, answer), body: answerText('rest', answer, toJson) };
}

const restStatus = (route: RestRoute, answer: unknown) => (route.nothingCreated?.when(answer) ? 200 : (route.status ?? 200));

export async function handleRest(
  { routes: candidates, params }: RestMatch,
  req: IncomingMessage,
  res: ServerResponse,
  search: string,
  makeContext: () => Context | Promise<Context>,
): Promise<void> {
  const route = routeFor(candidates, req.method);
  if (!route) {
    res.setHeader('Allow', candidates.map((r) => r.method).join(', '));
    return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
  }
  try {
    const body = readsBody(route) ? await readJsonBody(req, route.bodyLimit ?? DEFAULT_BODY_LIMIT) : undefined;
    if (route.file && !wantsJsonInstead(route.file, req)) {
      return await sendFileAnswer(route, route.file, res, inputOf(route, params, search, body), makeContext);
    }
    const key = route.method === 'POST' ? idempotencyKeyOf(req) : undefined;
    const made = makeContext();
    const ctx = made instanceof Promise ? await made : made;
    // A kept read's answer is sent as soon as found: nothing to call, nothing to repeat (keptAnswerFor finds none for a
    // write, the only call an Idempotency-Key covers); its checks or its reading failing answer as the call's would.
    const meta = metas.get(route.procedure);
    if (meta?.kept && route.method === 'GET') {
      const lookup = { path: route.procedure, meta, type: route.type, input: keptGetInputOf(route, params, search, req.url ?? '') };
      const found = keptAnswerFor(ctx, lookup);
      const kept = found instanceof Promise ? await found : found;
      if (kept) return sendJsonText(res, restStatus(route, kept.data), answerBytes('rest', kept.data, toJson));
    }
    const input = inputOf(route, params, search, body);
    const run = async (): Promise<StoredHttpAnswer> => {
      try {
        // In-process, as createCaller does, without its per-call proxy.
        const answer = await callProcedure({
          router: appRouter,
          path: route.procedure,
          getRawInput: async () => input,
          ctx,
          type: route.type,
          signal: undefined,
          batchIndex: 0,
        });
        return restAnswer(route, answer);
      } catch (error) {
        return errorAnswer(error, route.procedure, answerRequestId(res));
      }
    };
    // A repeated POST with the same Idempotency-Key gets the first answer again (http/idempotency.ts).
    const { session } = ctx;
    const answer =
      key && session
        ? await runIdempotent(
            ctx.db,
            {
              scope: { organizationId: session.organizationId, userId: session.userId, key, procedure: `rest:${route.procedure}` },
              requestHash: requestHash(input),
            },
            run,
          )
        : await run();
    sendJsonText(res, answer.status, answer.body);
  } catch (error) {
    sendError(res, error, route.procedure);
  }
}
