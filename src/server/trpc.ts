import { initTRPC } from '@trpc/server';
import { middlewareMarker, type ProcedureBuilder } from '@trpc/server/unstable-core-do-not-import';
import type { Context } from './context';
import { AppError, fieldsOf, messagesOf } from './errors';
import { inputSchemaOf } from './input-schemas';
import { invalidCharacterRefusal } from './input-characters';
import type { FileCharset } from './door-formats';
import { heavyWriteRefusal } from './auth/rate-limit';
import { ROLE_REFUSAL, roleAllows, type ProcedureRule } from '../shared/roles';
import { API_KEY_SELF_REFUSAL, API_KEY_WEBHOOKS_REFUSAL, apiKeyMayCall, apiKeyScopeRefusal } from './auth/api-keys';
import type { LimitKey, PlanFeature } from '../shared/plans';
import { assertFeature, assertWithinLimit } from './services/subscriptions';
import { answerKey, inputKeyOf, type KeptTerm, keptAnswersOf } from './kept-answers';
import { actingFor as actingForOrganization } from './db/write-scope';
import { transformer } from './wire-transformer';

/**
 * What a procedure says about its REST door: the REST dispatcher and the OpenAPI
 * document are derived from it, never kept in a table beside the procedures.
 */
export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path, `{name}` for a path parameter (given to the input under that name). */
  path: string;
  /** The success status: 201 for a creation, else 200. */
  status?: 200 | 201;
  /** A procedure that creates only sometimes: 200 with this description when `when` says its answer created nothing. */
  nothingCreated?: { when: (answer: unknown) => boolean; description: string };
  /**
   * Where the JSON body of a POST or PUT goes in the input: spread beside the path parameters (default), or under
   * this key (`{ id, data: body }`). GET reads the query string, spread beside the path parameters.
   */
  bodyKey?: string;
  /** A POST or PUT whose query string goes into the input too, beside the path parameters (`PUT /api/settings?key=`). */
  query?: boolean;
  /** Bytes a body may have, for the procedures that receive a file. */
  bodyLimit?: number;
  /** One line for the OpenAPI document. */
  summary?: string;
  /**
   * A GET whose answer is a file: the procedure's `{ filename, content }` is sent as the body, in this type and
   * charset, as an attachment of that name (the tRPC door still answers the object). `{ inline: true }`: the
   * procedure's `{ filename, content_type, content_base64 }` is sent as those bytes, to be shown in the browser.
   * `jsonWhenAsked`: a client whose Accept header asks for `application/json` (and not the file's type) gets the
   * object as JSON instead, as the tRPC door does — scripts written against the object keep working.
   */
  file?: { contentType: string; charset: FileCharset; jsonWhenAsked?: true } | { inline: true };
}

export interface ProcedureMeta {
  /**
   * Who may call the procedure: set by the builder it is made from (`readProcedure`, `manageProcedure`…), never by
   * hand. The middleware, the REST door, the OpenAPI document and the screens (client/lib/procedure-rules.ts) read it.
   */
  allow?: ProcedureRule;
  /**
   * An API key reaches the procedure only with this scope of its own, and then with what its creator may do: the
   * webhooks, which an integrator's script manages without a person's session.
   */
  apiKeyScope?: 'webhooks';
  rest?: RestMeta;
  /**
   * A write that costs the server far more than a row (copies a document, imports a file, renders or mails a PDF,
   * stores a screenshot): limited per session and per organisation, see `heavyWriteRefusal`.
   */
  heavy?: true;
  /**
   * A creation that counts against a limit of the organisation's plan: refused with 402 past it. `exempt`
   * reads the raw input and spares what the law needs whatever the plan (a credit note correcting an issued invoice).
   */
  limit?: { key: LimitKey; exempt?: (rawInput: unknown) => boolean };
  /** A creation that needs a feature of the plan (API keys, webhooks): 402 on a plan without it. */
  feature?: PlanFeature;
  /**
   * A read whose answer depends only on the data, the caller and the day (a list, a search, figures, a report): kept
   * between requests until data is written (kept-answers.ts). Never a read that writes, or shows bookkeeping.
   */
  kept?: true;
  /**
   * Calls a service outside Facturier (an SMTP server, the Plateforme Agréée, Stripe) and answers 502 naming it when
   * that service fails: the OpenAPI document declares that answer.
   */
  upstream?: true;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // superjson's wire form (dates, Maps…), both ways: the typed clients use it too (client/trpc.ts, scripts/api-client.ts).
    transformer,
    errorFormatter({ shape, error, path }) {
      const messages = messagesOf(error, inputSchemaOf(path));
      const { stack: _stack, ...data } = shape.data;
      const fields = fieldsOf(error);
      return {
        ...shape,
        message: Array.isArray(messages) ? messages.join('\n') : messages,
        data: { ...data, messages, ...(fields ? { fields } : {}) },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The first place where the parsed input is read: a string (or a key) holding a character no text may hold (NUL, a
 * lone surrogate: input-characters.ts) is refused here, for every procedure and both doors (REST path parameters,
 * query strings and bodies go into the input), before any schema or query sees it.
 */
async function refuseInvalidCharacters(path: string, getRawInput: () => Promise<unknown>): Promise<void> {
  // An input that cannot be read (a body that is not JSON) is left to the procedure: one without input ignores it,
  // one with input refuses it as before.
  const refusal = invalidCharacterRefusal(path, await getRawInput().catch(() => undefined));
  if (refusal) throw refusal;
}

const anyone = t.procedure.use(async ({ path, next, getRawInput }) => {
  await refuseInvalidCharacters(path, getRawInput);
  return next();
});

/**
 * A builder whose procedures carry their rule in their meta (read at run time) and in their type (the screens' map of
 * rules, client/lib/procedure-rules.ts, is checked against the router's types): `.meta()` merges, so a procedure's own
 * meta keeps the rule, and its type accepts no other.
 */
type RuledBuilder<TBuilder, TRule extends ProcedureRule> =
  TBuilder extends ProcedureBuilder<infer C, infer M, infer O, infer II, infer IO, infer OI, infer OO, infer K>
    ? ProcedureBuilder<C, M & { allow?: TRule }, O, II, IO, OI, OO, K>
    : never;

function ruled<TBuilder extends { meta(meta: ProcedureMeta): TBuilder }, TRule extends ProcedureRule>(
  builder: TBuilder,
  allow: TRule,
): RuledBuilder<TBuilder, TRule> {
  return builder.meta({ allow }) as unknown as RuledBuilder<TBuilder, TRule>;
}

/** No session needed: the account's doors, the public share pages, the health checks. */
export const publicProcedure = ruled(anyone, 'public');

/**
 * The checks of every signed-in procedure, in one middleware (each middleware of tRPC's chain costs a call, a
 * context copy and promises on every request, `npm run bench -- scale`), in this order: the input's characters, the
 * session, the procedure's rule for the session's role or API key, the plan; then the kept answer of a `kept` read,
 * or the procedure. After it, `ctx.session`, `ctx.userId` and `ctx.organizationId` are non-null types.
 */
const signedIn = t.procedure.use(async ({ ctx, meta, path, type, next, getRawInput }) => {
  await refuseInvalidCharacters(path, getRawInput);
  const { session } = ctx;
  if (!session) throw new AppError('UNAUTHORIZED', 'Veuillez vous connecter');
  await refuseOutsideRule(ctx, session, meta, type, getRawInput);
  // `keptTerm`: where a kept read tells its answer the instant the clock alone changes it (null: not kept).
  const run = (keptTerm: KeptTerm | null = null) =>
    next({ ctx: { ...ctx, session, userId: session.userId, organizationId: session.organizationId, keptTerm } });
  if (type === 'mutation') return actingFor(session.organizationId, meta?.allow, () => run());
  // The kept answer of a `kept` read, if the data has not changed since; else the procedure runs and its answer is kept.
  const answers = meta?.kept && type === 'query' ? keptAnswersOf(ctx.db) : null;
  if (!answers) return run();
  const key = answerKey(path, session, inputKeyOf(await getRawInput()));
  const found = await answers.answer(key, session.organizationId, run, session.dataGeneration);
  return 'kept' in found ? { ok: true as const, data: found.kept, marker: middlewareMarker } : found.read;
});

/**
 * The kept answer of a `kept` read for a door to send without calling the procedure through tRPC (its call, its
 * middlewares' promises and context copies cost more than finding the answer, `npm run bench -- scale`): only when
 * every check of `signedIn` passes for this call, with the same key. Otherwise null, and the door calls the procedure,
 * whose middleware answers, reads or refuses as it always does.
 */
export function keptAnswerFor(
  ctx: Context,
  call: { path: string; meta: ProcedureMeta | undefined; type: string; input: KeptReadInput },
): KeptAnswer | null | Promise<KeptAnswer | null> {
  const { session } = ctx;
  if (!call.meta?.kept || call.type !== 'query' || !session) return null;
  const answers = keptAnswersOf(ctx.db);
  if (!answers || call.input.refused) return null;
  // A refusal, or a check that reads the plan, is left to the procedure's own call: it answers in its door's shape.
  if (ruleRefusal(session, call.meta) || checksPlan(call.meta, call.type, session)) return null;
  // Found at once where the generation is the process's own (SQLite): no promise then, the door sends it at once.
  const data = answers.kept(answerKey(call.path, session, call.input.key), session.organizationId, session.dataGeneration);
  return data instanceof Promise ? data.then(keptAnswerOf) : keptAnswerOf(data);
}

/**
 * What finding a kept answer reads of a call's raw input: whether it holds a character every input refuses (the call
 * then answers that 400), and its key's part. A door that sees the same input again may keep this and give it again.
 */
export interface KeptReadInput {
  refused: boolean;
  key: string;
}

export const keptReadInputOf = (path: string, rawInput: unknown): KeptReadInput => ({
  refused: invalidCharacterRefusal(path, rawInput) !== null,
  key: inputKeyOf(rawInput),
});

export interface KeptAnswer {
  data: unknown;
}

const keptAnswerOf = (data: unknown): KeptAnswer | null => (data === undefined ? null : { data });

/**
 * The refusal of a call that the session's role or API key may not make: the procedure's own rule, the screens' too;
 * a procedure without one is refused, never let through, and so is a signed-in procedure that calls itself public
 * (it cannot be one: only publicProcedure is). Null when the rule allows the call.
 */
function ruleRefusal(session: NonNullable<Context['session']>, meta: ProcedureMeta | undefined): AppError | null {
  const rule = meta?.allow;
  const { apiKey } = session;
  // An API key acts for the organisation through its role (auth/api-keys.ts), never on a person's own account.
  if (apiKey && rule === 'self') return new AppError('FORBIDDEN', API_KEY_SELF_REFUSAL);
  const allowed = apiKey ? apiKeyMayCall(apiKey, session.role, rule, meta?.apiKeyScope) : roleAllows(session.role, rule);
  if (rule !== undefined && rule !== 'public' && allowed) return null;
  const keyRefusal = apiKey && meta?.apiKeyScope === 'webhooks' ? API_KEY_WEBHOOKS_REFUSAL : apiKey && apiKeyScopeRefusal(apiKey.scope);
  return new AppError('FORBIDDEN', keyRefusal || ROLE_REFUSAL);
}

/** Whether the call needs the plan's or the rate's checks, which read the database (refuseOutsideRule). */
const checksPlan = (meta: ProcedureMeta | undefined, type: string, session: NonNullable<Context['session']>) =>
  Boolean(meta?.heavy || meta?.feature || meta?.limit || (session.apiKey && type === 'mutation'));

/** Refuses a call outside the session's rule (ruleRefusal), then past the heavy writes' rate, the plan's features and limits. */
async function refuseOutsideRule(
  ctx: Context,
  session: NonNullable<Context['session']>,
  meta: ProcedureMeta | undefined,
  type: string,
  getRawInput: () => Promise<unknown>,
): Promise<void> {
  const refusal = ruleRefusal(session, meta);
  if (refusal) throw refusal;
  if (!checksPlan(meta, type, session)) return;
  if (meta?.heavy) {
    const heavy = await heavyWriteRefusal(ctx.rateLimits, session.id, session.organizationId);
    if (heavy) throw heavy;
  }
  if (meta?.feature) await assertFeature(ctx, session.organizationId, meta.feature);
  // A key kept after a downgrade below Solo still reads and exports (never blocked); its writes are refused.
  if (session.apiKey && type === 'mutation') await assertFeature(ctx, session.organizationId, 'api');
  if (meta?.limit && !meta.limit.exempt?.(await getRawInput())) await assertWithinLimit(ctx, session.organizationId, meta.limit.key);
}

/**
 * Runs a write as acting for the session's organisation (db/write-scope.ts), so that its writes move only that
 * organisation's kept answers; a procedure on the person's own account (`self`) writes what every organisation of
 * theirs may show, so its writes count as anyone's. A read enters no scope: should it write data after all, its write
 * counts as anyone's, which drops more kept answers than needed, never too few.
 */
function actingFor<T>(organizationId: number, rule: ProcedureRule | undefined, work: () => Promise<T>): Promise<T> {
  return rule === 'self' ? work() : actingForOrganization(organizationId, work);
}

/**
 * The builders a procedure is made from, one per rule (shared/roles.ts): `self` the user's own account, whatever the
 * role; `read` reads and exports (every role); `write` the day's records (member and above); `manage` settings,
 * members and the reserved deletions (admin and above); `own` billing and the organisation itself (owners only).
 * There is no builder without a rule, so a procedure without one does not compile.
 */
export const selfProcedure = ruled(signedIn, 'self');
export const readProcedure = ruled(signedIn, 'read');
export const writeProcedure = ruled(signedIn, 'write');
export const manageProcedure = ruled(signedIn, 'manage');
export const ownerProcedure = ruled(signedIn, 'own');
/** Managing webhooks: an owner's or an admin's, and an API key's only with its `webhooks` scope. */
export const webhooksProcedure = manageProcedure.meta({ apiKeyScope: 'webhooks' });
