import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { sellerIdentity } from '../helpers/documents';
import { keepPdf } from '../helpers/kept-pdf';
import { DocumentChecker, deref, operationsOf, type Json } from '../helpers/openapi-document';

/**
 * /api/openapi.json held to the standard tools an integrator uses: Redocly's linter (recommended rules), Ajv in strict
 * mode over every schema, openapi-typescript's types and openapi-fetch running a day's task with an API key, every
 * answer checked against the document.
 */
let server: TestServer;
let text: string;
let document: Json;
let checker: DocumentChecker;
beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  text = await response.text();
  document = JSON.parse(text);
  checker = new DocumentChecker(document);
});
afterAll(() => server.close());

/** Every keyword a schema of an OpenAPI 3.1 document may carry besides `x-` extensions. */
const SCHEMA_KEYWORDS = new Set(
  (
    '$ref $defs $id $schema $anchor $comment type enum const format title description default examples deprecated readOnly writeOnly ' +
    'properties required additionalProperties patternProperties propertyNames minProperties maxProperties items prefixItems contains ' +
    'minContains maxContains minItems maxItems uniqueItems anyOf oneOf allOf not if then else minimum maximum exclusiveMinimum ' +
    'exclusiveMaximum multipleOf minLength maxLength pattern contentEncoding contentMediaType dependentRequired dependentSchemas ' +
    'unevaluatedItems unevaluatedProperties discriminator xml externalDocs example'
  ).split(' '),
);

/** The keywords of a schema and of every schema inside it, wherever a map of schemas or a list of them holds them. */
function keywordsOf(schema: unknown, found: Set<string>): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    if (['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(key) && value && typeof value === 'object')
      for (const child of Object.values(value)) keywordsOf(child, found);
    else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value))
      for (const child of value) keywordsOf(child, found);
    else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'].includes(key))
      keywordsOf(value, found);
  }
}

describe('the OpenAPI document, as standard tools read it', () => {
  it('weighs under 1 MB: a schema used twice is one component, referenced', () => {
    expect(Buffer.byteLength(text)).toBeLessThan(1_000_000);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas).length).toBeGreaterThan(20);
    // No two components say the same thing.
    const bodies = Object.values(schemas).map((schema) => JSON.stringify(schema));
    expect(new Set(bodies).size).toBe(bodies.length);
    // The answer of every action on a document is the same schema each time: one component, referenced.
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, { content: Record<string, { schema: Json }> }> }>
    >;
    const answers = ['issue', 'status', 'sent', 'convert', 'duplicate', 'deposit'].map((action) => {
      const responses = paths[`/api/documents/{id}/${action}`]?.post?.responses ?? {};
      return Object.entries(responses).find(([status]) => status.startsWith('2'))?.[1].content['application/json']?.schema.$ref;
    });
    expect(answers[0]).toMatch(/^#\/components\/schemas\//);
    expect(new Set(answers)).toEqual(new Set([answers[0]]));
  });

  it('carries only standard keywords and x- extensions: the French labels are titles', () => {
    const keywords = new Set<string>();
    for (const { schema } of checker.schemas()) keywordsOf(deref(document, schema), keywords);
    for (const schema of Object.values((document.components as { schemas: Record<string, unknown> }).schemas)) keywordsOf(schema, keywords);
    expect([...keywords].filter((key) => !SCHEMA_KEYWORDS.has(key) && !key.startsWith('x-'))).toEqual([]);
    expect(text).toContain('"title":"Montant du paiement"');
  });

  it('passes Redocly’s recommended rules without an error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: path.join(server.dataDir, 'openapi.json'), config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer ?? ''}`)).toEqual([]);
  }, 180_000);

  it('compiles every schema with Ajv (JSON Schema 2020-12) in strict mode', () => {
    const schemas = checker.schemas();
    expect(schemas.length).toBeGreaterThan(500);
    const refused: string[] = [];
    for (const { where, schema } of schemas) {
      try {
        checker.validator(schema);
      } catch (error) {
        refused.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
    // Ajv compiles some 700 schemas: seconds on a quiet machine, more on a busy one.
  }, 180_000);

  it('gives every operation a summary and a unique operationId', () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(200);
    for (const { method, path: at, operation } of operations) {
      expect(String(operation.summary ?? '').trim(), `${method} ${at}`).not.toBe('');
      // A summary is a sentence of the product, not the fallback that names the procedure.
      expect(operation.summary, `${method} ${at}`).not.toBe(operation.operationId);
    }
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the statuses that happen, with their headers: WWW-Authenticate on 401, Retry-After on 429 and 503', () => {
    const responses = (document.components as { responses: Record<string, Json> }).responses;
    const headerOf = (name: string, header: string) =>
      deref<Json>(document, (responses[name]?.headers as Record<string, unknown>)?.[header]);
    expect(headerOf('Unauthorized', 'WWW-Authenticate')).toMatchObject({ required: true });
    expect(headerOf('ServiceUnavailable', 'Retry-After')).toMatchObject({ required: true });
    expect(headerOf('TooManyRequests', 'Retry-After')).toMatchObject({ schema: { type: 'integer' } });
    for (const { method, path: at, operation } of operationsOf(document)) {
      if (at.startsWith('/api/stripe/') || at === '/share/{uuid}') continue;
      const statuses = Object.keys(operation.responses as Json);
      expect(statuses, `${method} ${at}`).toEqual(expect.arrayContaining(['400', '500', '503']));
      if (at.startsWith('/api/') && at !== '/api/openapi.json')
        expect(statuses, `${method} ${at}`).toEqual(expect.arrayContaining(['401', '429']));
      if (operation.requestBody) expect(statuses, `${method} ${at}`).toContain('413');
      if (method === 'post') {
        expect(statuses, `${method} ${at}`).toContain('422');
        expect(operation.parameters, `${method} ${at}`).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
      }
    }
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    for (const at of ['/api/einvoicing/check', '/api/settings/email/test', '/api/documents/{id}/send', '/api/share/{uuid}/checkout'])
      expect(Object.keys(paths[at]?.post?.responses ?? {}), at).toContain('502');
    expect(Object.keys(paths['/api/customers']?.get?.responses ?? {})).not.toContain('502');
  });

  it('describes the PDF download and the public share page with their content types', () => {
    const paths = document.paths as Record<string, Record<string, { security?: unknown[]; responses: Record<string, Json> }>>;
    const download = paths['/documents/download/{uuid}']?.get;
    expect(download?.security).toEqual([]);
    expect(Object.keys((download?.responses['200']?.content ?? {}) as Json)).toEqual(['application/pdf']);
    expect(Object.keys(download?.responses ?? {})).toEqual(expect.arrayContaining(['404', '429', '503']));
    const page = paths['/share/{uuid}']?.get;
    expect(Object.keys((page?.responses['200']?.content ?? {}) as Json)).toEqual(['text/html; charset=utf-8']);
    for (const at of ['/api/share/{uuid}', '/api/share/{uuid}/quote']) expect(paths[at]?.get?.security, at).toEqual([]);
  });
});

describe('what the server answers is what the document says', () => {
  it('sends WWW-Authenticate with every 401, on the REST and tRPC doors, with or without a bad API key', async () => {
    const answers = [
      { template: '/api/customers', response: await fetch(`${server.url}/api/customers`) },
      {
        template: '/api/customers',
        response: await fetch(`${server.url}/api/customers`, { headers: { authorization: 'Bearer fk_live_inconnue' } }),
      },
      { template: '/api/auth', response: await fetch(`${server.url}/api/auth`) },
    ];
    for (const { template, response } of answers) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="Facturier"');
      expect(await checker.problems('GET', template, response)).toEqual([]);
    }
    const trpc = await fetch(`${server.url}/api/trpc/customers.list`);
    expect(trpc.status).toBe(401);
    expect(trpc.headers.get('www-authenticate')).toBe('Bearer realm="Facturier"');
  });

  it('still names a refused field by its French label (the labels the document no longer carries are read at run time)', async () => {
    const { session } = await registered(server.url);
    const answer = await session.fetch(`${server.url}/api/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Client', email: 'pas-une-adresse' }),
    });
    expect(answer.status).toBe(400);
    expect(await checker.problems('POST', '/api/customers', answer.clone())).toEqual([]);
    const body = (await answer.json()) as { messages: string | string[] };
    expect([body.messages].flat().join(' ')).toMatch(/e-mail/i);
  });
});

/** The scripted task, written against the types openapi-typescript generates from the document (tests/.generated). */
const TASK = `import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './facturier-api';

/**
 * customer → invoice → issue → payment → PDF, with an API key, every answer handed to \`check\`. \`printed\` stands for
 * the print at issue, which needs a browser build the integration tests do without.
 */
export async function runTask(baseUrl: string, apiKey: string, check: Middleware, printed: (id: number) => Promise<unknown>) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${apiKey}\` } });
  api.use(check);
  const customer = await api.POST('/api/customers', {
    body: {
      name: 'Boulangerie Martin',
      business_id: '732 829 320',
      address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
      maturity: 30,
    },
  });
  if (!customer.data) throw new Error(\`customer: \${JSON.stringify(customer.error)}\`);
  const created = await api.POST('/api/documents', {
    body: {
      type: 'invoice',
      customer_id: customer.data.data.id,
      date: '2026-11-02',
      items: [{ item: 'Conseil', quantity: 2, unit_price: 450, taxes: [{ title: 'TVA 20 %', rate: 20 }] }],
    },
  });
  if (!created.data) throw new Error(\`draft: \${JSON.stringify(created.error)}\`);
  const id = created.data.data.id;
  const issued = await api.POST('/api/documents/{id}/issue', { params: { path: { id } }, body: {} });
  if (!issued.data) throw new Error(\`issue: \${JSON.stringify(issued.error)}\`);
  const paid = await api.POST('/api/documents/{id}/payments', {
    params: { path: { id } },
    body: { date: '2026-11-20', amount: issued.data.data.total, method: 'transfer' },
  });
  if (!paid.data) throw new Error(\`payment: \${JSON.stringify(paid.error)}\`);
  const invoice = await api.GET('/api/documents/{id}', { params: { path: { id } } });
  if (!invoice.data) throw new Error(\`read back: \${JSON.stringify(invoice.error)}\`);
  await printed(id);
  const pdf = await api.GET('/documents/download/{uuid}', { params: { path: { uuid: invoice.data.uuid } }, parseAs: 'arrayBuffer' });
  if (!pdf.data) throw new Error(\`pdf: \${JSON.stringify(pdf.error)}\`);
  const again = await api.POST('/api/documents/{id}/issue', { params: { path: { id } }, body: {} });
  return { number: issued.data.data.number, status: invoice.data.status, pdf: pdf.data, againStatus: again.response.status };
}
`;

async function writeKey(session: Session): Promise<string> {
  const answer = await session.rest('POST', '/api/api-keys', { name: 'Intégration', scope: 'write' });
  expect(answer.status).toBe(201);
  return answer.body.data.secret;
}

describe('an integrator’s script: types from openapi-typescript, calls through openapi-fetch', () => {
  const folder = fileURLToPath(new URL('../.generated/', import.meta.url));
  const typesFile = path.join(folder, 'facturier-api.d.ts');
  const taskFile = path.join(folder, 'openapi-task.ts');

  it('generates types that the scripted task compiles against', async () => {
    // A field with a default may be left out of a body: openapi-typescript makes such fields required unless told not to.
    const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { defaultNonNullable: false });
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(typesFile, astToString(ast));
    fs.writeFileSync(taskFile, TASK);
    const program = ts.createProgram([taskFile], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 120_000);

  it('runs customer → invoice → issue → payment → PDF with an API key, every answer as the document says', async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
    const key = await writeKey(session);
    const problems: string[] = [];
    const seen: string[] = [];
    const check = {
      async onResponse({ request, response, schemaPath }: { request: Request; response: Response; schemaPath: string }) {
        seen.push(`${request.method} ${schemaPath} ${response.status}`);
        problems.push(...(await checker.problems(request.method, schemaPath, response.clone())));
      },
    };
    const { runTask } = (await import(pathToFileURL(taskFile).href)) as {
      runTask: (
        baseUrl: string,
        apiKey: string,
        check: unknown,
        printed: (id: number) => Promise<unknown>,
      ) => Promise<{ number: string; status: string; pdf: ArrayBuffer; againStatus: number }>;
    };
    const result = await runTask(server.url, key, check, (id) => keepPdf(server, id));
    expect(problems).toEqual([]);
    expect(seen).toEqual([
      'POST /api/customers 201',
      'POST /api/documents 201',
      'POST /api/documents/{id}/issue 200',
      'POST /api/documents/{id}/payments 201',
      'GET /api/documents/{id} 200',
      'GET /documents/download/{uuid} 200',
      'POST /api/documents/{id}/issue 409',
    ]);
    expect(result.number).toMatch(/\d/);
    expect(result.status).toBe('paid');
    expect(Buffer.from(result.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(result.againStatus).toBe(409);
  }, 120_000);
});
