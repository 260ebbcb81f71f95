import { z } from 'zod';

/** A JSON Schema (draft 2020-12, which OpenAPI 3.1 speaks) as Zod writes it. */
export type JsonSchema = Record<string, unknown>;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The JSON Schema of one side of a Zod schema: `input` is what a client sends (before defaults and transforms),
 * `output` what the procedure answers. What JSON cannot say (a transform's result, a date object) becomes `{}`
 * ('any') instead of throwing: the document describes every path, if loosely in those places.
 */
export function jsonSchemaOf(schema: unknown, io: 'input' | 'output'): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => publishMetadata(jsonSchema as JsonSchema),
  });
  return withoutTypeUnions(json);
}

/** The keywords that apply to one JSON type only: they follow their type into its own branch. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties'],
};

/** Keywords whose value is data, not a schema: never rewritten. */
const VALUE_KEYWORDS = new Set(['default', 'examples', 'const', 'enum']);

/**
 * A record keyed by an enum (`z.record(z.enum([...]), …)`) comes out as `required` names with no `properties`: valid,
 * but strict validators refuse a required name they cannot see. Each one is declared with the record's value schema,
 * which says the same thing.
 */
function requiredAsProperties(schema: JsonSchema): void {
  const { required, additionalProperties } = schema;
  if (!Array.isArray(required) || !isSchema(additionalProperties)) return;
  const properties: JsonSchema = isSchema(schema.properties) ? { ...schema.properties } : {};
  const missing = required.filter((name): name is string => typeof name === 'string' && !(name in properties));
  if (missing.length === 0) return;
  for (const name of missing) properties[name] = additionalProperties;
  schema.properties = properties;
}

/**
 * `type: ['number', 'string']` (an amount typed '12,5' or 12.5) is valid JSON Schema, but strict validators (Ajv's
 * strictTypes) and code generators want one type per schema: it is written as `anyOf` one branch per type, each
 * with the keywords of its type. `[T, 'null']`, which every tool reads as nullable, is kept.
 */
function withoutTypeUnions(schema: JsonSchema): JsonSchema {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isSchema(value)) return;
    for (const [key, child] of Object.entries(value)) if (!VALUE_KEYWORDS.has(key)) visit(child);
    requiredAsProperties(value);
    const { type } = value;
    if (!Array.isArray(type) || type.filter((t) => t !== 'null').length < 2 || value.anyOf !== undefined) return;
    const moved = new Set<string>();
    value.anyOf = type.map((t: unknown) => {
      const branch: JsonSchema = { type: t };
      for (const keyword of TYPE_KEYWORDS[String(t)] ?? []) {
        if (keyword in value) {
          branch[keyword] = value[keyword];
          moved.add(keyword);
        }
      }
      return branch;
    });
    delete value.type;
    for (const keyword of moved) delete value[keyword];
  };
  visit(schema);
  return schema;
}

/**
 * Zod copies a schema's `.meta()` into its JSON Schema as is; the published document may carry only JSON Schema's own
 * keywords and `x-` extensions. The French field label (`.meta({ label })`, which names a field in the 400 messages at
 * run time, read from Zod's registry, not from here) is what JSON Schema calls a `title`; the keys that only steer
 * those messages (`itemLabel`, `pathLabels`) mean nothing to a client and are left out; any other key of ours becomes
 * an `x-` extension.
 */
const MESSAGE_ONLY_META = new Set(['itemLabel', 'pathLabels']);
const STANDARD_ANNOTATIONS = new Set(['title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
/** Every keyword the draft 2020-12 vocabularies (and Zod's output) may put on a schema: never renamed. */
const JSON_SCHEMA_KEYWORDS = new Set([
  ...STANDARD_ANNOTATIONS,
  ...['$ref', '$defs', '$id', '$schema', '$anchor', '$dynamicRef', '$dynamicAnchor', 'type', 'enum', 'const', 'format'],
  ...['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties'],
  ...['items', 'prefixItems', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems'],
  ...['unevaluatedItems', 'unevaluatedProperties', 'dependentRequired', 'dependentSchemas'],
  ...['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern'],
  ...['contentEncoding', 'contentMediaType', 'contentSchema'],
]);

function publishMetadata(json: JsonSchema): void {
  for (const key of Object.keys(json)) {
    if (JSON_SCHEMA_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    const value = json[key];
    delete json[key];
    if (MESSAGE_ONLY_META.has(key)) continue;
    if (key === 'label') {
      if (typeof value === 'string' && json.title === undefined) json.title = value;
      continue;
    }
    json[`x-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = value;
  }
}

/** The alternatives of a schema: itself, or each branch of a top-level union or intersection. */
function branches(schema: JsonSchema): JsonSchema[] {
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) return list.filter(isSchema).flatMap(branches);
  }
  return [schema];
}

/** Each property any branch declares, with whether every branch that has it requires it. */
export function propertiesOf(schema: JsonSchema): Map<string, { schema: JsonSchema; required: boolean }> {
  const found = new Map<string, { schema: JsonSchema; required: boolean }>();
  for (const branch of branches(schema)) {
    const properties = isSchema(branch.properties) ? branch.properties : {};
    const required = Array.isArray(branch.required) ? branch.required : [];
    for (const [name, property] of Object.entries(properties)) {
      if (!isSchema(property)) continue;
      const previous = found.get(name);
      found.set(name, { schema: previous?.schema ?? property, required: (previous?.required ?? true) && required.includes(name) });
    }
  }
  return found;
}

/** The schema of property `key` (under a union, the union of that property's schemas). */
export function propertySchema(schema: JsonSchema, key: string): JsonSchema {
  const found = branches(schema)
    .map((branch) => (isSchema(branch.properties) ? branch.properties[key] : undefined))
    .filter(isSchema);
  if (found.length === 1 && found[0]) return found[0];
  return found.length === 0 ? {} : { anyOf: found };
}

/** The schema without some properties (path and query parameters, which the body does not carry). */
export function omitProperties(schema: JsonSchema, keys: string[]): JsonSchema {
  if (keys.length === 0) return schema;
  const copy: JsonSchema = { ...schema };
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) copy[key] = list.map((item) => (isSchema(item) ? omitProperties(item, keys) : item));
  }
  if (isSchema(schema.properties)) {
    copy.properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !keys.includes(name)));
    if (Array.isArray(schema.required)) copy.required = schema.required.filter((name) => !keys.includes(name));
  }
  return copy;
}

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * A recursive schema (`z.lazy`, a getter) comes out of Zod with its own `$defs` and `$ref: '#/$defs/…'` or `'#'`, which
 * inside an OpenAPI document would point at the document's root. Its definitions become components named after
 * `name` (added to `components`) and the references point at them; the schema itself stays where it is, and a
 * reference to its root points at a component copy of it.
 */
export function hoistDefinitions(
  schema: JsonSchema | undefined,
  name: string,
  components: Record<string, JsonSchema>,
): JsonSchema | undefined {
  if (!schema) return schema;
  const selfReferencing = refersToRoot(schema);
  if (!selfReferencing && schema.$defs === undefined) return schema;
  const { $defs, ...root } = schema;
  const names = new Map<string, string>();
  for (const id of Object.keys(isSchema($defs) ? $defs : {})) {
    const base = `${name}${id.replace(/^_+/, '').replace(/^./, (c) => c.toUpperCase())}`;
    let unique = base;
    for (let n = 2; unique in components || [...names.values()].includes(unique); n++) unique = `${base}${n}`;
    names.set(id, unique);
  }
  const rootName = name in components ? `${name}Root` : name;
  const point = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(point);
    if (!isSchema(value)) return value;
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && child === '#') out.$ref = `${COMPONENT_PREFIX}${rootName}`;
      else if (key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/'))
        out.$ref = `${COMPONENT_PREFIX}${names.get(decodeURIComponent(child.slice('#/$defs/'.length))) ?? ''}`;
      else out[key] = point(child);
    }
    return out;
  };
  for (const [id, definition] of Object.entries(isSchema($defs) ? $defs : {}))
    components[names.get(id) ?? id] = point(definition) as JsonSchema;
  const body = point(root) as JsonSchema;
  if (selfReferencing) components[rootName] = body;
  return body;
}

/** Whether a schema refers to its own root (`$ref: '#'`, a recursive schema without definitions). */
function refersToRoot(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersToRoot);
  if (!isSchema(value)) return false;
  return value.$ref === '#' || Object.values(value).some(refersToRoot);
}
