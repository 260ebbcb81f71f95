import { describe, expect, it } from 'vitest';
import { filterGroups, referenceGroups, typeOf } from '../../src/client/routes/settings/api/openapi-reference';
import { curlExamples } from '../../src/client/routes/settings/api/curl-example';

const document = {
  paths: {
    '/api/api-keys': {
      get: {
        tags: ['apiKeys'],
        summary: 'Les clés',
        responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { total: {}, data: {} } } } } } },
      },
      post: {
        tags: ['apiKeys'],
        summary: 'Crée une clé',
        // Shared schemas are components: the reference lists the fields of the component a `$ref` names.
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiKeyInput' } } } },
        responses: { '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Written' } } } } },
      },
    },
    '/api/customers/{id}': {
      delete: {
        tags: ['customers'],
        summary: 'Supprime un client',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      },
    },
    '/api/exports/fec': {
      get: { tags: ['exports'], summary: 'FEC', responses: { '200': { content: { 'text/plain; charset=iso-8859-15': {} } } } },
    },
  },
  components: {
    schemas: {
      ApiKeyInput: {
        type: 'object',
        required: ['name', 'scope'],
        properties: { name: { type: 'string' }, scope: { enum: ['read', 'write'] } },
      },
      Written: { type: 'object', properties: { messages: {}, data: {} } },
    },
  },
};

describe('the API reference drawn from /api/openapi.json', () => {
  it('groups operations by tag, with their fields and success answer', () => {
    const groups = referenceGroups(document);
    expect(groups.map((g) => g.tag)).toEqual(['apiKeys', 'customers', 'exports']);
    const [list, create] = groups[0]?.operations ?? [];
    expect(list).toMatchObject({ method: 'GET', path: '/api/api-keys', success: { status: '200', type: '{ total, data }' } });
    expect(create?.fields).toEqual([
      { name: 'name', where: 'body', type: 'string', required: true },
      { name: 'scope', where: 'body', type: "'read' | 'write'", required: true },
    ]);
    expect(create?.success.status).toBe('201');
    expect(groups[1]?.operations[0]?.fields).toEqual([{ name: 'id', where: 'path', type: 'integer', required: true }]);
    expect(groups[2]?.operations[0]?.success.type).toBe('text/plain; charset=iso-8859-15');
  });

  it('names types in one line', () => {
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeOf({ type: 'array', items: { type: 'object', properties: {} } })).toBe('array of object');
    expect(typeOf({ type: 'string', format: 'date' })).toBe('string (date)');
    expect(typeOf(undefined)).toBe('any');
  });

  it('filters by path, method or summary, ignoring case and accents', () => {
    const groups = referenceGroups(document);
    expect(filterGroups(groups, 'CREE').flatMap((g) => g.operations.map((o) => o.path))).toEqual(['/api/api-keys']);
    expect(filterGroups(groups, 'delete').map((g) => g.tag)).toEqual(['customers']);
    expect(filterGroups(groups, '  ')).toBe(groups);
    expect(filterGroups(groups, 'webhooks')).toEqual([]);
  });

  it('writes curl examples with the base URL and key, a write only for a write key', () => {
    expect(curlExamples('https://app.exemple.fr', 'fk_live_x', 'read')).toBe(
      'curl https://app.exemple.fr/api/customers \\\n  -H "Authorization: Bearer fk_live_x"',
    );
    const write = curlExamples('https://app.exemple.fr', 'fk_live_x', 'write');
    expect(write).toContain('curl -X POST https://app.exemple.fr/api/customers');
    expect(write).toContain(`-d '{"name": "Dupont SA"}'`);
  });
});
