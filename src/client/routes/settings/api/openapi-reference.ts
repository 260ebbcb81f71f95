/**
 * The API reference of Paramètres → API, read from /api/openapi.json (built from the procedures' own metadata on the
 * server, src/server/openapi). Every maintained viewer weighed 0.9–4.4 MB minified (see the page), so the page draws
 * this compact reference itself: what a developer needs per path — method, parameters, body fields, answer.
 */

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  $ref?: string;
}

interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema>; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
}

const SCHEMA_REF = '#/components/schemas/';

/** A body or an answer that is a shared schema (`$ref` to a component): the component, to list its fields. */
function resolved(document: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref;
  if (!ref?.startsWith(SCHEMA_REF)) return schema;
  return document.components?.schemas?.[ref.slice(SCHEMA_REF.length)] ?? schema;
}

export interface ReferenceField {
  name: string;
  /** Where it goes: path, query, header, or body. */
  where: string;
  type: string;
  required: boolean;
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  fields: ReferenceField[];
  /** The success status and what it answers. */
  success: { status: string; type: string };
}

export interface ReferenceGroup {
  tag: string;
  operations: ReferenceOperation[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A one-line type: `string`, `number | null`, `'read' | 'write'`, `array of object`. */
export function typeOf(schema: Schema | undefined, depth = 0): string {
  if (!schema || depth > 3) return 'any';
  if (schema.$ref) return schema.$ref.split('/').at(-1) ?? 'object';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v).replaceAll('"', "'")).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map((s) => typeOf(s, depth + 1)))].join(' | ');
  if (schema.allOf?.length === 1) return typeOf(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `array of ${typeOf(schema.items, depth + 1)}`;
  if (type === 'string' && schema.format) return `string (${schema.format})`;
  return type ?? (schema.properties ? 'object' : 'any');
}

const firstSchema = (content: Record<string, { schema?: Schema }> | undefined) => Object.values(content ?? {})[0]?.schema;

function bodyFields(schema: Schema | undefined): ReferenceField[] {
  if (!schema) return [];
  if (!schema.properties) return [{ name: '(corps)', where: 'body', type: typeOf(schema), required: true }];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    where: 'body',
    type: typeOf(property),
    required: required.has(name),
  }));
}

function successOf(document: OpenApiDocument, operation: OpenApiOperation): ReferenceOperation['success'] {
  const [status, response] = Object.entries(operation.responses ?? {}).find(([code]) => code.startsWith('2')) ?? ['200', undefined];
  const [contentType, media] = Object.entries(response?.content ?? {})[0] ?? [];
  if (!contentType) return { status, type: '—' };
  if (!contentType.startsWith('application/json')) return { status, type: contentType };
  const schema = resolved(document, media?.schema);
  const keys = schema?.properties ? Object.keys(schema.properties) : [];
  return { status, type: keys.length > 0 ? `{ ${keys.join(', ')} }` : typeOf(schema) };
}

/** The document's operations grouped by their first tag, groups and paths in alphabetical order. */
export function referenceGroups(document: OpenApiDocument): ReferenceGroup[] {
  const groups = new Map<string, ReferenceOperation[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'autres';
      const fields: ReferenceField[] = (operation.parameters ?? []).map((p) => ({
        name: p.name,
        where: p.in,
        type: typeOf(p.schema),
        required: p.required ?? false,
      }));
      fields.push(...bodyFields(resolved(document, firstSchema(operation.requestBody?.content))));
      const entry: ReferenceOperation = {
        id: operation.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        fields,
        success: successOf(document, operation),
      };
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, operations]) => ({
      tag,
      operations: operations.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
    }));
}

/** The groups whose operations match a search (path, summary or method), case- and accent-insensitive. */
export function filterGroups(groups: ReferenceGroup[], search: string): ReferenceGroup[] {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const needle = fold(search.trim());
  if (!needle) return groups;
  return groups
    .map((g) => ({
      tag: g.tag,
      operations: g.operations.filter((o) => fold(`${g.tag} ${o.method} ${o.path} ${o.summary}`).includes(needle)),
    }))
    .filter((g) => g.operations.length > 0);
}
