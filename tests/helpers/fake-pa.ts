import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import { serveDirectory } from './fake-pa-directory';
import {
  checkDocuments,
  DocumentSchemas,
  type FakePart,
  type Json,
  KNOWN_DOCUMENT_DEFECTS,
  type Operation,
  parseMultipart,
} from './openapi-check';

export { parseMultipart, type FakePart };

/**
 * A Plateforme Agréée nobody here wrote the rules of: an OAuth2 token endpoint, the XP Z12-013 Flow Service and
 * Directory Service, on one loopback port. Every request it receives and every answer it gives is checked against
 * the official OpenAPI documents (the documents themselves by @seriousme/openapi-schema-validator, bodies and
 * parameters by Ajv on their component schemas); what does not conform is kept in `violations`, which tests assert
 * empty. It can be told to fail: expired tokens (401), 429 with Retry-After, 503, or no answer at all.
 *
 * Services are served under /flow-service, /directory-service and the token at /oauth/token. A test adds the
 * operations it needs with `handle` (the healthchecks are built in).
 */
const ARTEFACTS = path.resolve(__dirname, '../fixtures/xp-z12-013');
const DOCUMENT_FILES = { flow: 'flow-service-1.3.0.json', directory: 'directory-service-1.3.0.json' } as const;

export type FakeService = keyof typeof DOCUMENT_FILES;

export interface FakeRequest {
  service: FakeService;
  method: string;
  /** The API path, from /v1/…. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** A multipart/form-data body's parts by name (POST /v1/flows: `flowInfo` and `file`). */
  parts: Map<string, FakePart>;
  operationId: string;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A file as the answer (a flow downloaded), instead of a JSON `body`: its media type must be documented. */
  file?: { contentType: string; data: Buffer };
}

export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * How the fake misbehaves, for the next `times` matching calls (default: until cleared). `lost-answer`: the request is
 * handled (a flow is created) but its answer never comes, as when a connection drops after sending. `garbage`: a 2xx
 * (`status`, default 200) whose body is HTML; being deliberately outside the document, it is not a violation.
 */
export interface FailureRule {
  target: FakeService | 'token';
  kind: 'unavailable' | 'throttled' | 'timeout' | 'server-error' | 'lost-answer' | 'garbage';
  retryAfter?: number;
  status?: number;
  times?: number;
  /** Only calls to this API path (e.g. '/v1/flows'); every path when unset. */
  path?: string;
}

export interface FakePa {
  /** http://127.0.0.1:port */
  origin: string;
  flowUrl: string;
  directoryUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** A static bearer token the services accept (the « jeton d'accès » mode). */
  staticToken: string;
  /** Every conformance problem seen, in words; tests assert this stays empty. */
  violations: string[];
  /** What the official documents get wrong themselves, validated around (see KNOWN_DOCUMENT_DEFECTS). */
  documentDefects: readonly string[];
  /** Every call received, in order (token calls included). */
  calls: { service: FakeService | 'token'; method: string; path: string; status: number | null }[];
  handle(service: FakeService, method: string, template: string, handler: FakeHandler): void;
  fail(rule: FailureRule): void;
  /** Every token issued so far is now expired: the next call that carries one gets a 401. */
  expireTokens(): void;
  reset(): void;
  close(): Promise<void>;
}

const readBody = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const errorBody = (errorCode: string, errorMessage: string) => ({ errorCode, errorMessage });

/** The body of PUT /api/settings/einvoicing that connects an organisation to this fake platform with its static token. */
export function fakePaSettings(pa: FakePa, syntax: 'cii' | 'factur-x' | 'ubl' = 'cii') {
  return {
    mode: 'afnor',
    flow_url: pa.flowUrl,
    directory_url: pa.directoryUrl,
    token: pa.staticToken,
    pa_matricule: '0042',
    syntax,
  } as const;
}

export async function startFakePa(): Promise<FakePa> {
  const documents = Object.fromEntries(
    Object.entries(DOCUMENT_FILES).map(([name, file]) => [name, JSON.parse(fs.readFileSync(path.join(ARTEFACTS, file), 'utf8')) as Json]),
  ) as Record<FakeService, Json>;
  const schemas = { flow: new DocumentSchemas('flow', documents.flow), directory: new DocumentSchemas('directory', documents.directory) };
  const violations: string[] = [...(await checkDocuments(documents))];
  const calls: FakePa['calls'] = [];
  const handlers = new Map<string, FakeHandler>();
  let rules: (FailureRule & { left: number })[] = [];
  const tokens = new Map<string, { expired: boolean }>();
  const hanging = new Set<http.ServerResponse>();
  const clientId = 'facturier-test';
  const clientSecret = crypto.randomBytes(12).toString('hex');
  const staticToken = `static-${crypto.randomBytes(12).toString('hex')}`;

  const ok200: FakeHandler = () => ({ status: 200 });
  handlers.set('flow GET /v1/healthcheck', ok200);
  handlers.set('directory GET /v1/healthcheck', ok200);

  const ruleFor = (target: FailureRule['target'], apiPath: string) => {
    const rule = rules.find((r) => r.target === target && r.left > 0 && (r.path === undefined || r.path === apiPath));
    if (rule) rule.left -= 1;
    return rule;
  };

  const failureAnswer = (rule: FailureRule): FakeAnswer => {
    if (rule.kind === 'throttled') {
      return {
        status: 429,
        headers: { 'retry-after': String(rule.retryAfter ?? 1) },
        body: errorBody('TOO_MANY_REQUESTS', 'The client emitted too many requests'),
      };
    }
    if (rule.kind === 'server-error') return { status: 500, body: errorBody('INTERNAL_ERROR', 'Internal error') };
    return {
      status: 503,
      headers: rule.retryAfter === undefined ? {} : { 'retry-after': String(rule.retryAfter) },
      body: errorBody('RESOURCE_ERROR', 'Service unavailable'),
    };
  };

  /** Checks an answer against the operation's documented responses, then sends it. */
  const answer = (res: http.ServerResponse, service: FakeService, operation: Operation, result: FakeAnswer, secured: boolean) => {
    const where = `${service} ${operation.method} ${operation.template} → ${result.status}`;
    const responses = operation.spec.responses as Record<string, Json>;
    const documented = responses[String(result.status)] ?? responses.default;
    // RFC 6750: a bearer-secured operation may answer 401 whether or not its responses list it.
    if (!documented && !(secured && result.status === 401)) violations.push(`${where}: status not documented`);
    const response = documented ? schemas[service].deref(documented) : undefined;
    const content = response?.content as Record<string, Json> | undefined;
    let payload: Buffer | undefined;
    const headers: Record<string, string> = { ...result.headers };
    const documentedHeaders = (response?.headers ?? {}) as Record<string, Json>;
    for (const [name, header] of Object.entries(documentedHeaders)) {
      const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
      const schema = schemas[service].deref(header).schema as Json | undefined;
      if (value === undefined || !schema) continue;
      const errors = schemas[service].check(schema, value);
      if (errors) violations.push(`${where}: header ${name}: ${errors}`);
    }
    if (result.file) {
      payload = result.file.data;
      headers['content-type'] = result.file.contentType;
      if (!content?.[result.file.contentType])
        violations.push(
          `${where}: a ${result.file.contentType} answer where the document declares ${Object.keys(content ?? {}).join(', ')}`,
        );
    } else if (result.body !== undefined) {
      payload = Buffer.from(JSON.stringify(result.body));
      headers['content-type'] = 'application/json';
      const schema = content?.['application/json']?.schema as Json | undefined;
      if (content && !schema) violations.push(`${where}: JSON answer where the document declares ${Object.keys(content).join(', ')}`);
      if (schema) {
        const errors = schemas[service].check(schema, result.body);
        if (errors) violations.push(`${where}: answer does not match its schema: ${errors}`);
      }
    } else if (content && Object.keys(content).length > 0 && result.status < 300) {
      violations.push(`${where}: empty answer where the document declares a body`);
    }
    res.writeHead(result.status, headers);
    res.end(payload);
    return result.status;
  };

  /** Checks a request against its operation: parameters, security, body's media type and JSON schema. */
  const checkRequest = (service: FakeService, operation: Operation, request: FakeRequest): boolean => {
    const where = `${service} ${request.method} ${operation.template}`;
    const doc = schemas[service];
    for (const raw of operation.spec.parameters as Json[]) {
      const parameter = doc.deref(raw);
      const name = String(parameter.name);
      const value =
        parameter.in === 'header'
          ? (request.headers[name.toLowerCase()] as string | undefined)
          : parameter.in === 'path'
            ? request.params[name]
            : parameter.in === 'query'
              ? (request.query.get(name) ?? undefined)
              : undefined;
      if (value === undefined) {
        if (parameter.required) violations.push(`${where}: required ${parameter.in} parameter ${name} missing`);
        continue;
      }
      const schema = parameter.schema as Json | undefined;
      if (schema) {
        const typed =
          (doc.deref(schema).type === 'integer' || doc.deref(schema).type === 'number') && /^-?\d+(\.\d+)?$/.test(value)
            ? Number(value)
            : value;
        const errors = doc.check(schema, typed);
        if (errors) violations.push(`${where}: ${parameter.in} parameter ${name}: ${errors}`);
      }
    }
    const body = operation.spec.requestBody ? doc.deref(operation.spec.requestBody as Json) : undefined;
    const type =
      String(request.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    if (body) {
      const content = body.content as Record<string, Json>;
      if (request.body.length === 0) {
        if (body.required) violations.push(`${where}: required body missing`);
      } else if (!content[type]) {
        violations.push(`${where}: body of type ${type || '(none)'}, the document accepts ${Object.keys(content).join(', ')}`);
      } else if (type === 'multipart/form-data') {
        checkMultipart(where, doc, content[type], request);
      } else if (type === 'application/json') {
        try {
          const errors = doc.check(content[type].schema as Json, JSON.parse(request.body.toString('utf8')));
          if (errors) violations.push(`${where}: body does not match its schema: ${errors}`);
        } catch {
          violations.push(`${where}: body is not JSON`);
        }
      }
    } else if (request.body.length > 0) {
      violations.push(`${where}: a body was sent to an operation that takes none`);
    }
    return true;
  };

  /** Each part against its property's schema; `encoding.contentType` lists the media types a part may have. */
  const checkMultipart = (where: string, doc: DocumentSchemas, media: Json, request: FakeRequest) => {
    if (request.parts.size === 0) {
      violations.push(`${where}: multipart body without any readable part`);
      return;
    }
    const schema = doc.deref(media.schema as Json);
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const encoding = (media.encoding ?? {}) as Record<string, { contentType?: string }>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!request.parts.has(name)) violations.push(`${where}: required part ${name} missing`);
    }
    for (const [name, part] of request.parts) {
      const property = properties[name];
      if (!property) {
        violations.push(`${where}: part ${name} is not in the document`);
        continue;
      }
      const allowed = encoding[name]?.contentType?.split(',').map((t) => t.trim());
      if (allowed && !allowed.includes(part.contentType)) {
        violations.push(`${where}: part ${name} of type ${part.contentType}, the document allows ${allowed.join(', ')}`);
      }
      const resolved = doc.deref(property);
      if (resolved.type === 'string' && resolved.format === 'binary') continue;
      try {
        const errors = doc.check(property, JSON.parse(part.data.toString('utf8')));
        if (errors) violations.push(`${where}: part ${name} does not match its schema: ${errors}`);
      } catch {
        violations.push(`${where}: part ${name} is not JSON`);
      }
    }
  };

  const securityOf = (service: FakeService, operation: Operation) =>
    ((operation.spec.security ?? documents[service].security ?? []) as Json[]).length > 0;

  const bearerOk = (headers: http.IncomingHttpHeaders): 'ok' | 'missing' | 'expired' | 'unknown' => {
    const match = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''));
    if (!match?.[1]) return 'missing';
    if (match[1] === staticToken) return 'ok';
    const token = tokens.get(match[1]);
    if (!token) return 'unknown';
    return token.expired ? 'expired' : 'ok';
  };

  const serveToken = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = (await readBody(req)).toString('utf8');
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      calls.push({ service: 'token', method: req.method ?? '', path: '/oauth/token', status });
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
      res.end(JSON.stringify(json));
    };
    // RFC 6749 §4.4.2: POST, form-encoded, grant_type=client_credentials; the client authenticates in the body (§2.3.1).
    if (req.method !== 'POST') {
      violations.push(`token: ${req.method} instead of POST`);
      return send(405, { error: 'invalid_request' });
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      violations.push(`token: content-type ${req.headers['content-type']} instead of application/x-www-form-urlencoded`);
    }
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials') violations.push(`token: grant_type ${form.get('grant_type')}`);
    const rule = ruleFor('token', '/oauth/token');
    if (rule?.kind === 'timeout') {
      hanging.add(res);
      return;
    }
    if (rule)
      return send(
        rule.kind === 'throttled' ? 429 : 503,
        { error: 'temporarily_unavailable' },
        rule.retryAfter ? { 'retry-after': String(rule.retryAfter) } : {},
      );
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return send(401, { error: 'invalid_client' });
    const accessToken = crypto.randomBytes(16).toString('hex');
    tokens.set(accessToken, { expired: false });
    send(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/oauth/token') return await serveToken(req, res);
      const service: FakeService | undefined = url.pathname.startsWith('/flow-service/')
        ? 'flow'
        : url.pathname.startsWith('/directory-service/')
          ? 'directory'
          : undefined;
      const body = await readBody(req);
      if (!service) {
        violations.push(`${req.method} ${url.pathname}: no such service`);
        res.writeHead(404).end();
        return;
      }
      const apiPath = url.pathname.slice(service === 'flow' ? '/flow-service'.length : '/directory-service'.length);
      const method = req.method ?? 'GET';
      const operation = schemas[service].operations.find((o) => o.method === method && o.pattern.test(apiPath));
      if (!operation) {
        violations.push(`${service} ${method} ${apiPath}: no such operation in the OpenAPI document`);
        calls.push({ service, method, path: apiPath, status: 404 });
        res.writeHead(404).end();
        return;
      }
      const values = operation.pattern.exec(apiPath)?.slice(1) ?? [];
      const params = Object.fromEntries(operation.names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
      const request: FakeRequest = {
        service,
        method,
        path: apiPath,
        params,
        query: url.searchParams,
        headers: req.headers,
        body,
        parts: String(req.headers['content-type'] ?? '').startsWith('multipart/form-data')
          ? (parseMultipart(body, String(req.headers['content-type'])) ?? new Map())
          : new Map(),
        operationId: String(operation.spec.operationId ?? ''),
      };
      checkRequest(service, operation, request);
      const secured = securityOf(service, operation);
      const log = { service, method, path: apiPath, status: null as number | null };
      calls.push(log);
      const rule = ruleFor(service, apiPath);
      if (rule?.kind === 'timeout') {
        hanging.add(res);
        return;
      }
      if (rule?.kind === 'lost-answer') {
        await handlers.get(`${service} ${method} ${operation.template}`)?.(request);
        hanging.add(res);
        return;
      }
      if (rule?.kind === 'garbage') {
        log.status = rule.status ?? 200;
        res.writeHead(log.status, { 'content-type': 'text/html' });
        res.end('<html><body><h1>Bienvenue</h1></body></html>');
        return;
      }
      if (rule) {
        log.status = answer(res, service, operation, failureAnswer(rule), secured);
        return;
      }
      if (secured) {
        const state = bearerOk(req.headers);
        if (state !== 'ok') {
          const code = state === 'missing' ? 'MISSING_TOKEN' : state === 'expired' ? 'EXPIRED_TOKEN' : 'INVALID_TOKEN';
          log.status = answer(
            res,
            service,
            operation,
            { status: 401, body: errorBody(code, 'Authentication error'), headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
            secured,
          );
          return;
        }
      }
      const handler = handlers.get(`${service} ${method} ${operation.template}`);
      if (!handler) {
        violations.push(`${service} ${method} ${operation.template}: the fake has no handler (add one with handle())`);
        log.status = answer(
          res,
          service,
          operation,
          { status: 500, body: errorBody('NOT_IMPLEMENTED', 'Not implemented by the fake') },
          secured,
        );
        return;
      }
      log.status = answer(res, service, operation, await handler(request), secured);
    } catch (error) {
      violations.push(`fake PA crashed: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakePa = {
    origin,
    flowUrl: `${origin}/flow-service`,
    directoryUrl: `${origin}/directory-service`,
    tokenUrl: `${origin}/oauth/token`,
    clientId,
    clientSecret,
    staticToken,
    violations,
    documentDefects: KNOWN_DOCUMENT_DEFECTS,
    calls,
    handle(service, method, template, handler) {
      handlers.set(`${service} ${method.toUpperCase()} ${template}`, handler);
    },
    fail(rule) {
      rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    },
    expireTokens() {
      for (const token of tokens.values()) token.expired = true;
    },
    reset() {
      rules = [];
      calls.length = 0;
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  // A directory that lists nobody until a test lists businesses (serveDirectory again): the app looks its own SIREN up
  // whenever its connection is saved.
  serveDirectory(fake);
  return fake;
}
