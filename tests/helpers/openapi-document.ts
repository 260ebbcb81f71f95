import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Facturier's own OpenAPI document (GET /api/openapi.json) held to standard tools: every schema compiled by Ajv in
 * strict mode, and any answer of the server checked against what the document declares for its path, method and
 * status (status, content type, required headers, JSON body).
 */
export type Json = Record<string, unknown>;

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const SCHEMA_PREFIX = '#/components/schemas/';
const SCHEMA_URN = 'urn:facturier:schema:';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** What a `$ref: '#/…'` points at, followed until it is not a reference any more. */
export function deref<T = Json>(document: Json, value: unknown): T {
  let node = value as Json;
  for (let depth = 0; depth < 10 && typeof node?.$ref === 'string' && node.$ref.startsWith('#/'); depth++) {
    let target: unknown = document;
    for (const part of node.$ref.slice(2).split('/')) target = (target as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    const { $ref: _ref, ...siblings } = node;
    node = { ...(target as Json), ...siblings };
  }
  return node as T;
}

/** A schema with every component reference replaced by the component itself (for tests that read a schema's fields). */
export function inlined(document: Json, schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(document, item, depth));
  if (typeof schema !== 'object' || schema === null || depth > 30) return schema;
  const node = deref<Json>(document, schema);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(document, value, depth + 1)]));
}

export interface OperationEntry {
  method: string;
  path: string;
  operation: Json;
}

export function operationsOf(document: Json): OperationEntry[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as Json })),
  );
}

const essence = (contentType: string) => (contentType.split(';')[0] ?? '').trim().toLowerCase();

export class DocumentChecker {
  readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) this.ajv.addSchema(this.rebased(schema) as Json, `${SCHEMA_URN}${name}`);
  }

  /** Component references as the URNs the components are registered under in Ajv. */
  private rebased(schema: unknown): unknown {
    return JSON.parse(JSON.stringify(schema).replaceAll(`"${SCHEMA_PREFIX}`, `"${SCHEMA_URN}`));
  }

  /** Ajv's validator of one schema of the document (compiled once; strict mode throws on anything non-standard). */
  validator(schema: unknown): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(this.rebased(schema) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  /** Every schema of the document, where it is: components, parameters, headers, request and answer bodies. */
  schemas(): { where: string; schema: unknown }[] {
    const document = this.document;
    const found: { where: string; schema: unknown }[] = [];
    const components = (document.components ?? {}) as Record<string, Record<string, Json>>;
    for (const name of Object.keys(components.schemas ?? {}))
      found.push({ where: `${SCHEMA_PREFIX}${name}`, schema: { $ref: `${SCHEMA_PREFIX}${name}` } });
    for (const [name, header] of Object.entries(components.headers ?? {}))
      found.push({ where: `#/components/headers/${name}`, schema: header.schema });
    for (const { method, path, operation } of operationsOf(document)) {
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const resolved = deref<Json>(document, parameter);
        found.push({ where: `${method} ${path} parameter ${String(resolved.name)}`, schema: resolved.schema });
      }
      const body = deref<Json>(document, operation.requestBody ?? {});
      for (const [type, media] of Object.entries((body.content ?? {}) as Record<string, Json>))
        found.push({ where: `${method} ${path} body ${type}`, schema: media.schema });
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const resolved = deref<Json>(document, response);
        for (const [type, media] of Object.entries((resolved.content ?? {}) as Record<string, Json>))
          found.push({ where: `${method} ${path} ${status} ${type}`, schema: media.schema });
      }
    }
    return found.filter(({ schema }) => schema !== undefined);
  }

  /**
   * What is wrong with one answer of the server for `method path-template` ([] when it is what the document says):
   * its status must be declared, its content type too, its required headers present and its JSON body valid.
   */
  async problems(method: string, template: string, response: Response): Promise<string[]> {
    const at = `${method.toUpperCase()} ${template} → ${response.status}`;
    const item = (this.document.paths as Record<string, Json>)[template];
    const operation = item?.[method.toLowerCase()] as Json | undefined;
    if (!operation) return [`${at}: no such operation in the document`];
    const responses = operation.responses as Record<string, Json>;
    const declared = responses[String(response.status)] ?? responses[`${String(response.status)[0]}XX`] ?? responses.default;
    if (!declared) return [`${at}: status not declared (${Object.keys(responses).join(', ')})`];
    const answer = deref<Json>(this.document, declared);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, Json>)) {
      const resolved = deref<Json>(this.document, header);
      if (resolved.required === true && !response.headers.has(name)) problems.push(`${at}: required header ${name} missing`);
    }
    const content = (answer.content ?? {}) as Record<string, Json>;
    const received = response.headers.get('content-type') ?? '';
    if (Object.keys(content).length === 0) return problems;
    const media = Object.entries(content).find(([type]) => essence(type) === essence(received) || type === '*/*');
    if (!media) return [...problems, `${at}: content type ${received} not declared (${Object.keys(content).join(', ')})`];
    if (essence(received) === 'application/json') {
      const body: unknown = await response.json();
      const validate = this.validator(media[1].schema ?? {});
      if (!validate(body)) problems.push(`${at}: body does not match: ${this.ajv.errorsText(validate.errors).slice(0, 800)}`);
    }
    return problems;
  }
}
