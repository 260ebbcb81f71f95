import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { SERVER_KINDS, startServer, type ServerUnderTest } from '../helpers/built-server';
import { registered, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { appRouter } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import { restRoutes } from '../../src/server/http/rest';
import { inputSchemaOf } from '../../src/server/input-schemas';

/**
 * Every procedure, on both doors, fed inputs generated from its own Zod schema (through its JSON
 * Schema) mixed with hostile values — wrong types, huge and malformed strings, impossible dates, odd numbers. The
 * answer may be anything but a 5xx, and the process keeps answering. FUZZ_RUNS (default 6) inputs per procedure
 * and door keep `npm test` bounded; a larger FUZZ_RUNS digs deeper.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
/** Ends the session the rest of the run relies on: fuzzed on its own at the end. */
const LAST = new Set(['auth.logout']);

const hostileString = fc.constantFrom(
  '',
  ' ',
  'x'.repeat(5000),
  '../../etc/passwd',
  '%E0%A4%A',
  '<script>alert(1)</script>',
  "'; DROP TABLE documents; --",
  '2026-02-30',
  '9999-99-99',
  '25:00',
  '1e309',
  '-0',
  'NaN',
  '\u0000',
  '😀'.repeat(50),
  '=HYPERLINK("x")',
);
const hostileNumber = fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e-308, 999_999_999);
const wild = fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileString, hostileNumber);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
};

/** An arbitrary that mostly follows the schema (so that checks deep inside are reached) and sometimes does not. */
function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const variants = (arbs: fc.Arbitrary<unknown>[]) => fc.oneof({ weight: 4, arbitrary: fc.oneof(...arbs) }, { weight: 1, arbitrary: wild });
  if (depth > 4) return wild;
  if (schema.const !== undefined) return variants([fc.constant(schema.const)]);
  if (schema.enum) return variants([fc.constantFrom(...schema.enum)]);
  const union = schema.anyOf ?? schema.oneOf;
  if (union?.length) return fc.oneof(...union.map((s) => arbitraryOf(s, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0] ?? {}, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      if (props.length === 0) return variants([fc.dictionary(fc.string({ maxLength: 8 }), wild, { maxKeys: 3 })]);
      const record = Object.fromEntries(props.map(([k, s]) => [k, arbitraryOf(s, depth + 1)]));
      return variants([fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in record) })]);
    }
    case 'array':
      return variants([fc.array(arbitraryOf(schema.items ?? {}, depth + 1), { maxLength: 4 })]);
    case 'string':
      if (schema.format === 'date')
        return variants([fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), hostileString]);
      return variants([fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 60) }), hostileString]);
    case 'integer':
      return variants([fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 }), hostileNumber]);
    case 'number':
      return variants([fc.double({ noNaN: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 }), hostileNumber]);
    case 'boolean':
      return variants([fc.boolean()]);
    case 'null':
      return variants([fc.constant(null)]);
    default:
      return wild;
  }
}

function inputArbitrary(procedure: string): fc.Arbitrary<unknown> {
  const schema = inputSchemaOf(procedure);
  if (!schema) return fc.oneof(fc.constant(undefined), wild);
  try {
    return arbitraryOf(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  } catch {
    return wild;
  }
}

let server: ServerUnderTest;
let session: Session;
let credentials: { email: string; password: string };
let ids: number[] = [];
const answers = { requests: 0, byStatus: new Map<number, number>() };
const serverErrors: string[] = [];

async function record(what: string, send: () => Promise<Response>) {
  const response = await send();
  const text = await response.text();
  answers.requests += 1;
  answers.byStatus.set(response.status, (answers.byStatus.get(response.status) ?? 0) + 1);
  if (response.status >= 500) serverErrors.push(`${what} → ${response.status} ${text.slice(0, 200)}`);
}

const procedures = proceduresOf(appRouter)
  .map((p) => ({ path: p.path, type: p.procedure._def.type }))
  .sort((a, b) => Number(LAST.has(a.path)) - Number(LAST.has(b.path)));

/**
 * Percent-escapes that do not decode, or decode to what no parameter may hold: lone `%`, a non-hex digit, a lone
 * Latin-1 byte, a broken UTF-8 pair, NUL, overlong forms of `/`, a lone UTF-16 surrogate, a truncated sequence.
 */
const MALFORMED_ESCAPES = ['%', '%G1', '%E9', '%C3%28', '%00', '%C0%AF', '%E0%80%AF', '%ED%A0%80', '%E0%A4%A'];

/** Every REST route with a path parameter, each parameter in turn holding each escape (the others a plain id). */
function malformedPaths(): Array<[string, string]> {
  const paths: Array<[string, string]> = [];
  for (const route of restRoutes) {
    for (const param of route.params) {
      for (const malformed of MALFORMED_ESCAPES) {
        const path = route.params.reduce((p, name) => p.replace(`{${name}}`, name === param ? malformed : '1'), route.path);
        paths.push([route.method, path]);
      }
    }
  }
  // The doors outside the REST routes that read a name from the path.
  for (const prefix of ['/api/trpc/', '/documents/download/', '/uploads/logos/', '/share/'])
    for (const malformed of MALFORMED_ESCAPES) if (malformed !== '%00') paths.push(['GET', `${prefix}${malformed}`]);
  return paths;
}

/** A request sent as written: fetch() would re-encode a malformed path before sending it. */
function rawRequest(base: string, method: string, path: string, cookie: string): Promise<{ status: number; messages: string }> {
  const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
  const headers: http.OutgoingHttpHeaders = { cookie };
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: new URL(base).port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        let messages = text.slice(0, 200);
        try {
          messages = String((JSON.parse(text) as { messages?: unknown }).messages);
        } catch {
          /* not JSON: the text itself */
        }
        resolve({ status: res.statusCode ?? 0, messages });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(SERVER_KINDS)('on the %s server', (kind) => {
  beforeAll(async () => {
    answers.requests = 0;
    answers.byStatus.clear();
    serverErrors.length = 0;
    server = await startServer(kind);
    const first = await registered(server.url);
    session = first.session;
    credentials = { email: first.user.email, password: first.user.password };
    const { customerId } = await readyToInvoice(session);
    // A few real ids, so that generated path parameters sometimes name something that exists.
    const invoice = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Prestation', 2, 100)] });
    ids = [customerId, invoice.id, 1, 2, 3];
  });
  afterAll(async () => {
    const statuses = [...answers.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.info(`fuzz on the ${kind} server: ${answers.requests} requests, ${serverErrors.length} × 5xx (${statuses.join(', ')})`);
    await server.close();
  });

  /** Each door starts logged in (the other door's run ended with a logout, or a fuzzed register switched users). */
  async function freshSession(): Promise<void> {
    session = new Session(server.url);
    const login = await session.rest('POST', '/api/auth/login', credentials);
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
  }

  describe(`fuzz: every procedure, both doors, ${RUNS} generated inputs each`, () => {
    it('the tRPC door never answers 5xx', async () => {
      await freshSession();
      for (const { path, type } of procedures) {
        const samples = fc.sample(inputArbitrary(path), { numRuns: RUNS, seed: 20 });
        for (const input of samples) {
          const json = JSON.stringify({ json: input === undefined ? null : input });
          await record(`trpc ${path} ${json.slice(0, 120)}`, () =>
            type === 'query'
              ? session.fetch(`${server.url}/api/trpc/${path}?input=${encodeURIComponent(json)}`, { method: 'GET' })
              : session.fetch(`${server.url}/api/trpc/${path}`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: json,
                }),
          );
        }
      }
      expect(serverErrors).toEqual([]);
    }, 600_000);

    it('the REST door never answers 5xx, with generated path parameters, queries and bodies', async () => {
      await freshSession();
      const routes = [...restRoutes].sort((a, b) => Number(LAST.has(a.procedure)) - Number(LAST.has(b.procedure)));
      for (const route of routes) {
        const samples = fc.sample(
          fc.tuple(
            inputArbitrary(route.procedure),
            fc.array(fc.oneof(fc.constantFrom(...ids), fc.integer(), hostileString), { minLength: 3, maxLength: 3 }),
          ),
          { numRuns: RUNS, seed: 21 },
        );
        for (const [input, params] of samples) {
          const path = route.params.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(String(params[i] ?? 1))), route.path);
          const body = input && typeof input === 'object' && !Array.isArray(input) ? input : { value: input };
          const query = new URLSearchParams(
            Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]),
          );
          await record(`${route.method} ${path}`, () =>
            route.method === 'GET' || route.method === 'DELETE'
              ? session.fetch(`${server.url}${path}?${query}`, { method: route.method })
              : session.fetch(`${server.url}${path}`, {
                  method: route.method,
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify(body),
                }),
          );
        }
      }
      expect(serverErrors).toEqual([]);
    }, 600_000);

    it('refuses the NUL character with a French 400 on both doors, in a body, a query string and a path parameter', async () => {
      await freshSession();
      const created = await session.rest('POST', '/api/customers', { name: 'Client\u0000nul' });
      expect(created).toMatchObject({ status: 400, body: { messages: 'Caractère nul interdit dans la saisie (name)' } });
      const listed = await session.rest('GET', `/api/documents?search=${encodeURIComponent('FAC\u0000')}`);
      expect(listed).toMatchObject({ status: 400, body: { messages: 'Caractère nul interdit dans la saisie (search)' } });
      const removed = await session.rest('DELETE', '/api/expenses/categories/%00');
      expect(removed.status).toBe(400);
      expect(removed.body.messages).toMatch(/^Caractère nul interdit/);
      const trpc = await session.fetch(`${server.url}/api/trpc/customers.create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json: { name: 'ok', 'clé\u0000': 1 } }),
      });
      expect(trpc.status).toBe(400);
      expect(((await trpc.json()) as { error: { json: { message: string } } }).error.json.message).toMatch(/^Caractère nul interdit/);
    });

    it('refuses a malformed percent-escape in every path parameter with the French 400, never a 5xx', async () => {
      await freshSession();
      const cookie = session.cookie ?? '';
      const wrong: string[] = [];
      for (const [method, path] of malformedPaths()) {
        const answer = await rawRequest(server.url, method, path, cookie);
        const expected = path.includes('%00') ? /^Caractère nul interdit/ : /^Adresse mal formée : un code %XX ne se lit pas$/;
        if (answer.status !== 400 || !expected.test(answer.messages)) wrong.push(`${method} ${path} → ${answer.status} ${answer.messages}`);
      }
      expect(wrong).toEqual([]);
    }, 120_000);

    it('the process is alive and answers after all of it', async () => {
      expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
    });
  });
});
