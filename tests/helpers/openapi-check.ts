import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';

/**
 * The OpenAPI side of the fake Plateforme Agréée (fake-pa.ts): its operations by path template, Ajv over each
 * document's component schemas, the documents' own validation by a standard OpenAPI validator, and the
 * multipart/form-data reader that POST /v1/flows needs.
 */
export type Json = Record<string, unknown>;

export interface FakePart {
  contentType: string;
  filename: string | null;
  data: Buffer;
}

/** RFC 7578 multipart/form-data, enough for what a client sends: parts by name, their type, file name and bytes. */
export function parseMultipart(body: Buffer, contentType: string): Map<string, FakePart> | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return null;
  const parts = new Map<string, FakePart>();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  if (start < 0) return null;
  while (true) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return parts;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return null;
    // Each part: CRLF, headers, CRLF CRLF, data, CRLF before the next delimiter.
    const raw = body.subarray(start + 2, next - 2);
    const split = raw.indexOf('\r\n\r\n');
    if (split < 0) return null;
    const headers = raw.subarray(0, split).toString('utf8');
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) return null;
    parts.set(name, {
      contentType: /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'text/plain',
      filename: /\bfilename="([^"]*)"/i.exec(headers)?.[1] ?? null,
      data: raw.subarray(split + 4),
    });
    start = next;
  }
}

export interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  spec: Json;
}

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const spec = item[method] as Json | undefined;
      if (!spec) continue;
      const names: string[] = [];
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          if (part.startsWith('{')) {
            names.push(part.slice(1, -1));
            return '([^/]+)';
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${source}$`),
        names,
        spec: { ...spec, parameters: [...((item.parameters as Json[]) ?? []), ...((spec.parameters as Json[]) ?? [])] },
      });
    }
  }
  return operations;
}

/** Ajv over one OpenAPI 3.0 document: `$ref`s resolve inside it (`#/components/...`). */
export class DocumentSchemas {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly operations: Operation[];

  readonly document: Json;

  constructor(
    readonly name: string,
    official: Json,
  ) {
    addFormats(this.ajv);
    this.document = withSchemaDefectsPatched(official);
    this.ajv.addSchema(this.document, name);
    this.operations = operationsOf(this.document);
  }

  /** A `$ref` or inline schema → its errors ('' when it conforms). */
  check(schema: Json, value: unknown): string {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      // Inline schemas may hold local refs: rewrite them to point into the registered document.
      const rebased = JSON.parse(key.replace(/"#\/components\//g, `"${this.name}#/components/`));
      validate = this.ajv.compile(rebased);
      this.compiled.set(key, validate);
    }
    return validate(value) ? '' : this.ajv.errorsText(validate.errors);
  }

  /** A `$ref: '#/components/…'` object → what it points at, one level. */
  deref(value: Json): Json {
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    let node: unknown = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part];
    return this.deref(node as Json);
  }
}

/**
 * Where the official documents themselves are wrong:
 * - they break OpenAPI 3.0: their OAuth2 `tokenUrl` is a template (`…/{custId}/token`), not the URI the specification
 *   requires. The fake validates each document with that one template percent-encoded;
 * - the Flow Service's `ReasonCode` is `oneOf: [ReasonCodeEnum, string]`, described as « a predefined set of reason
 *   code values + ability to extend this set »: every predefined code is also a string, so it matches both branches
 *   and strict `oneOf` refuses exactly the documented codes (an unlisted one passes). Bodies are checked with `anyOf`
 *   there, what the description says.
 * Anything else the validators find is a violation.
 */
export const KNOWN_DOCUMENT_DEFECTS = [
  'components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl is a URI template ({custId})',
  'components.schemas.ReasonCode is oneOf [ReasonCodeEnum, string]: the enum values match both (checked as anyOf)',
];

/** The `ReasonCode` defect above, and only it, corrected for the body checks. */
function withSchemaDefectsPatched(document: Json): Json {
  const reason = (document.components as { schemas?: Record<string, Json> } | undefined)?.schemas?.ReasonCode;
  if (!reason?.oneOf) return document;
  const copy = structuredClone(document);
  const patched = (copy.components as { schemas: Record<string, Json> }).schemas.ReasonCode as Json;
  patched.anyOf = patched.oneOf;
  delete patched.oneOf;
  return copy;
}

function withKnownDefectsPatched(document: Json): Json {
  const copy = structuredClone(document);
  const flow = (copy.components as { securitySchemes?: { OAuth2?: { flows?: { clientCredentials?: { tokenUrl?: string } } } } })
    .securitySchemes?.OAuth2?.flows?.clientCredentials;
  if (flow?.tokenUrl) flow.tokenUrl = flow.tokenUrl.replace(/\{([^}]*)\}/g, '%7B$1%7D');
  return copy;
}

/** The official OpenAPI documents, checked once per process with a standard OpenAPI validator. */
let documentsChecked: Promise<string[]> | undefined;
export function checkDocuments(documents: Record<string, Json>): Promise<string[]> {
  documentsChecked ??= (async () => {
    const problems: string[] = [];
    for (const [name, document] of Object.entries(documents)) {
      const result = await new Validator().validate(withKnownDefectsPatched(document));
      if (!result.valid) problems.push(`${name}: the OpenAPI document does not validate: ${JSON.stringify(result.errors).slice(0, 500)}`);
    }
    return problems;
  })();
  return documentsChecked;
}
