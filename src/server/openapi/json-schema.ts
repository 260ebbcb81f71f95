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
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return json;
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
