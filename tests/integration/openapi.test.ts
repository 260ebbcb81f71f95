import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../helpers/server';
import { Session } from '../helpers/clients';
import { deref, type Json } from '../helpers/openapi-document';

interface Operation {
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content: Record<string, { schema: Schema }> }>;
}
interface Schema {
  properties?: Record<string, unknown>;
  required?: string[];
}
let server: TestServer;
let document: { openapi: string; paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  server = await startTestServer();
  const answer = await new Session(server.url).rest('GET', '/api/openapi.json');
  expect(answer.status).toBe(200);
  document = answer.body;
});
afterAll(() => server.close());

/** CONTRACT.md's REST paths the app serves, with their methods; each must be in the document. */
const SERVED: [string, string[]][] = [
  ['/api/auth/register', ['post']],
  ['/api/auth/login', ['post']],
  ['/api/auth/logout', ['post']],
  ['/api/auth', ['get']],
  ['/api/auth/password/forgot', ['post']],
  ['/api/auth/password/reset', ['post']],
  ['/api/auth/verify_email', ['post']],
  ['/api/settings', ['get', 'put']],
  ['/api/settings/email', ['get', 'put']],
  ['/api/settings/online-payment', ['get', 'put', 'delete']],
  ['/api/settings/online-payment/test', ['post']],
  ['/api/stripe/webhook/{organisation}', ['post']],
  ['/api/settings/email/test', ['post']],
  ['/api/feedback', ['post']],
  ['/api/version', ['get']],
  ['/api/customers', ['get', 'post']],
  ['/api/customers/import', ['post']],
  ['/api/customers/export', ['get']],
  ['/api/customers/{id}', ['get', 'put', 'delete']],
  ['/api/customers/{id}/restore', ['post']],
  ['/api/customers/{id}/figures', ['get']],
  ['/api/items', ['get', 'post']],
  ['/api/items/import', ['post']],
  ['/api/items/export', ['get']],
  ['/api/items/{id}', ['get', 'put', 'delete']],
  ['/api/items/{id}/restore', ['post']],
  ['/api/dashboard', ['get']],
  ['/api/search', ['get']],
  ['/api/organization', ['get', 'put']],
  ['/api/organization/logo', ['post', 'delete']],
  ['/api/taxes', ['get', 'post']],
  ['/api/taxes/{id}', ['put', 'delete']],
  ['/api/units', ['get', 'post']],
  ['/api/units/{id}', ['delete']],
  ['/api/currencies', ['get', 'post']],
  ['/api/currencies/{id}', ['put', 'delete']],
  ['/api/tags', ['get', 'post']],
  ['/api/tags/{id}', ['put', 'delete']],
  ['/api/audit', ['get']],
  ['/api/audit/verify', ['get']],
  ['/api/exports/accounts', ['get', 'put']],
  ['/api/openapi.json', ['get']],
  ['/api/settings/einvoicing', ['get', 'put']],
  ['/api/einvoicing/check', ['post']],
  ['/api/documents/{id}/transmit', ['post']],
  ['/api/einvoicing/sync', ['post']],
  ['/api/expenses/{id}/lifecycle', ['get', 'post']],
];

/**
 * The documents and share paths: their procedures live in src/server/routers/documents.ts and share.ts, whose meta
 * their owner adds (until then src/server/http/rest-pending-meta.ts describes their doors, so they are listed too).
 */
const SERVED_BY_DOCUMENTS: [string, string[]][] = [
  ['/api/documents', ['get', 'post']],
  ['/api/documents/{id}', ['get', 'put', 'delete']],
  ['/api/documents/{id}/issue', ['post']],
  ['/api/documents/{id}/status', ['post']],
  ['/api/documents/{id}/sent', ['post']],
  ['/api/documents/{id}/convert', ['post']],
  ['/api/documents/{id}/duplicate', ['post']],
  ['/api/documents/{id}/deposit', ['post']],
  ['/api/documents/{id}/payments', ['get', 'post']],
  ['/api/documents/{id}/payments/{paymentId}', ['put', 'delete']],
  ['/api/share/{uuid}', ['get']],
  ['/api/share/{uuid}/checkout', ['post']],
];

const successOf = (operation: Operation) => Object.entries(operation.responses).find(([status]) => status.startsWith('2'));

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a session', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('lists every REST path the app serves, with its methods', () => {
    for (const [path, methods] of SERVED) expect(Object.keys(document.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
  });

  it('describes the Stripe webhook: signed by Stripe, no session, its 200 and its refusals', () => {
    const operation = document.paths['/api/stripe/webhook']?.post as Operation & {
      security: unknown[];
      parameters: { name: string; in: string; required: boolean }[];
    };
    expect(operation.security).toEqual([]);
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'Stripe-Signature', in: 'header', required: true }));
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '405', '413', '500', '503']);
    expect(successOf(operation)?.[1]).toMatchObject({
      content: { 'application/json': { schema: { required: ['received', 'duplicate'] } } },
    });
  });

  it('lists the documents and share paths', () => {
    for (const [path, methods] of SERVED_BY_DOCUMENTS)
      expect(Object.keys(document.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
  });

  it('names path parameters, query parameters or the body, the answer and the error shape', () => {
    // Shared schemas are components: read through their `$ref`.
    const schemaOf = (schema: Schema | undefined) => deref<Schema>(document as unknown as Json, schema);
    const get = document.paths['/api/customers/{id}']?.get;
    expect(get?.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(schemaOf(successOf(get ?? { responses: {} })?.[1].content['application/json']?.schema).properties).toHaveProperty('number');
    const list = document.paths['/api/customers']?.get;
    expect(list?.parameters?.map((p) => [p.name, p.in])).toEqual(
      expect.arrayContaining([
        ['search', 'query'],
        ['page', 'query'],
      ]),
    );
    const create = document.paths['/api/customers']?.post;
    expect(successOf(create ?? { responses: {} })?.[0]).toBe('201');
    expect(schemaOf(create?.requestBody?.content['application/json']?.schema).required).toContain('name');
    // PUT /api/customers/{id}: the body is the customer (the input's `data`), the id is in the path.
    const update = document.paths['/api/customers/{id}']?.put;
    expect(schemaOf(update?.requestBody?.content['application/json']?.schema).properties).toHaveProperty('name');
    expect(schemaOf(update?.requestBody?.content['application/json']?.schema).properties).not.toHaveProperty('id');
    // PUT /api/settings[?key=document]: the key is a query parameter, the body the settings object or the template.
    const settings = document.paths['/api/settings']?.put;
    expect(settings?.parameters).toEqual([expect.objectContaining({ name: 'key', in: 'query', required: false })]);
    const errorOf = (operation: Operation | undefined, status: string) =>
      deref<{ content: Record<string, { schema: Schema }> }>(document as unknown as Json, operation?.responses[status]).content[
        'application/json'
      ]?.schema;
    for (const status of ['400', '401', '403', '404', '409'])
      expect(errorOf(create, status)).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('describes a file answer by its type: the FEC is ISO-8859-15 text, with the year as a required query parameter', () => {
    const fec = document.paths['/api/exports/fec']?.get;
    expect(fec?.parameters).toEqual([expect.objectContaining({ name: 'year', in: 'query', required: true })]);
    expect(successOf(fec ?? { responses: {} })?.[1].content).toEqual({ 'text/plain; charset=iso-8859-15': { schema: { type: 'string' } } });
    const error = deref<{ content: Record<string, { schema: Schema }> }>(document as unknown as Json, fec?.responses['400']);
    expect(error.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('describes a CSV export as the file, with its JSON object as the alternative', () => {
    for (const path of ['/api/customers/export', '/api/items/export', '/api/expenses/export']) {
      const content = successOf(document.paths[path]?.get ?? { responses: {} })?.[1].content;
      expect(Object.keys(content ?? {}), path).toEqual(['text/csv; charset=utf-8', 'application/json']);
      expect(deref(document as unknown as Json, content?.['application/json']?.schema), path).toMatchObject({
        properties: { filename: {}, content: {} },
      });
    }
  });

  it('describes the answer of every procedure of the routers that declare `.output()`', () => {
    for (const [path] of SERVED) {
      for (const [method, operation] of Object.entries(document.paths[path] ?? {})) {
        const schema = successOf(operation)?.[1].content['application/json']?.schema;
        expect(Object.keys(schema ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });
});
