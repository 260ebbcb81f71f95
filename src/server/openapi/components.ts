import type { JsonSchema } from './json-schema';

/**
 * Shared schemas as `components/schemas`: every procedure's input and answer is converted on its own, so a schema
 * several procedures share (the document, the customer, an address) would be written out in full in each of them.
 * Here the same schema met twice or more, anywhere in the document, becomes one component and a `$ref`; nothing is
 * listed by hand, so a procedure added tomorrow shares its schemas the same way.
 *
 * Two schemas are the same when they say the same thing, whatever annotates them where they are used: a title
 * (the field's French label) or a description stays beside the `$ref`, so one address schema serves both the
 * « Adresse » and the « Adresse de livraison » fields.
 */

/** Where a schema sits in the document: the object holding it under `schema`, and a name for it if it is shared. */
export interface SchemaSlot {
  holder: { schema?: JsonSchema };
  /** PascalCase name for this root schema (`CustomersCreateBody`) if it becomes a component. */
  name: string;
  /** What a client sends (a body, a parameter) or receives: the same field may differ between the two. */
  side: 'input' | 'output';
}

const ANNOTATIONS = ['title', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment'];
/** Below this many characters a schema is cheaper written out than referenced (a bounded string, a small enum). */
const MIN_SHARED_LENGTH = 160;
/** Property names that say nothing of what they hold: the component takes its name from where it sits instead. */
const GENERIC_NAMES = new Set(['data', 'items', 'item', 'value', 'values', 'result', 'results', 'rows', 'entries', 'list']);

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => (part[0] ?? '').toUpperCase() + part.slice(1))
    .join('');

/** The child schemas of a schema, by keyword: each call of `visit` gets the child and how to name it. */
function eachChild(
  schema: JsonSchema,
  visit: (child: JsonSchema, hint: (parent: string) => string, set: (next: JsonSchema) => void) => void,
) {
  const at = (container: Record<string, unknown> | unknown[], key: string | number, hint: (parent: string) => string) => {
    const child = (container as Record<string | number, unknown>)[key];
    if (isSchema(child))
      visit(child, hint, (next) => {
        (container as Record<string | number, unknown>)[key] = next;
      });
  };
  for (const keyword of ['properties', 'patternProperties', '$defs', 'dependentSchemas']) {
    const map = schema[keyword];
    if (isSchema(map))
      for (const name of Object.keys(map)) at(map, name, (parent) => (GENERIC_NAMES.has(name) ? parent : '') + pascal(name));
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) at(list, i, (parent) => `${parent}${keyword === 'prefixItems' ? 'Item' : 'Option'}${i + 1}`);
  }
  at(schema, 'items', (parent) => `${parent}Item`);
  at(schema, 'additionalProperties', (parent) => `${parent}Value`);
  for (const keyword of [
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'unevaluatedItems',
    'unevaluatedProperties',
    'contentSchema',
  ])
    at(schema, keyword, (parent) => `${parent}${pascal(keyword)}`);
}

/** The schema without the annotations of the place it is used in, and those annotations. */
function split(schema: JsonSchema): { core: JsonSchema; annotations: JsonSchema } {
  const core: JsonSchema = {};
  const annotations: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.includes(key)) annotations[key] = value;
    else core[key] = value;
  }
  return { core, annotations };
}

/** Whether a schema is worth a component: structured (an object, a list, a union, an enum) and not tiny. */
function shareable(core: JsonSchema, weight: number): boolean {
  if (weight < MIN_SHARED_LENGTH || core.$ref !== undefined) return false;
  return ['properties', 'items', 'anyOf', 'oneOf', 'allOf', 'enum', 'additionalProperties'].some((key) => key in core);
}

/**
 * Moves every schema used more than once into `components/schemas` and points its uses at it. Returns the
 * components, named after the field or the operation they come from (`Address`, `CustomersGetAnswer`), each name
 * unique. The slots' schemas are rewritten in place.
 */
export function extractComponents(slots: SchemaSlot[], reserved: Record<string, JsonSchema> = {}): Record<string, JsonSchema> {
  // 1. Every schema's core gets a number, the same for the same content, bottom-up (a parent's key is written with its
  //    children's numbers, so no text grows with the depth), with its size in JSON characters and how many times it
  //    is used in the whole document.
  const numbers = new Map<string, number>();
  const intern = (key: string) => {
    let number = numbers.get(key);
    if (number === undefined) {
      number = numbers.size;
      numbers.set(key, number);
    }
    return number;
  };
  const known = new Map<JsonSchema, { number: number; weight: number }>();
  const valueKey = (value: unknown): { key: string; weight: number } => {
    if (Array.isArray(value)) {
      const items = value.map(valueKey);
      return { key: `[${items.map((item) => item.key).join(',')}]`, weight: items.reduce((sum, item) => sum + item.weight + 1, 2) };
    }
    if (isSchema(value)) {
      const { number, weight } = numbered(value);
      return { key: `#${number}`, weight };
    }
    const text = JSON.stringify(value) ?? 'null';
    return { key: text, weight: text.length };
  };
  const keyOf = (schema: JsonSchema) => {
    let weight = 2;
    const parts: string[] = [];
    for (const [key, value] of Object.entries(schema)) {
      const child = valueKey(value);
      parts.push(`${JSON.stringify(key)}:${child.key}`);
      weight += key.length + 4 + child.weight;
    }
    return { number: intern(`{${parts.join(',')}}`), weight };
  };
  const numbered = (schema: JsonSchema) => {
    let found = known.get(schema);
    if (!found) {
      found = keyOf(schema);
      known.set(schema, found);
    }
    return found;
  };
  const uses = new Map<string, number>();
  const coreText = new Map<JsonSchema, string>();
  const count = (schema: JsonSchema) => {
    const { core } = split(schema);
    const { number, weight } = keyOf(core);
    const text = String(number);
    coreText.set(schema, text);
    if (shareable(core, weight)) uses.set(text, (uses.get(text) ?? 0) + 1);
    eachChild(schema, (child) => count(child));
  };
  for (const slot of slots) if (slot.holder.schema) count(slot.holder.schema);

  // 2. Top-down: a shared schema becomes a component (its body rewritten once) and a `$ref` where it was, with the
  //    annotations of that place beside it.
  const components = new Map<string, { body: JsonSchema; names: Map<string, number>; sides: Set<string>; name?: string }>();
  let side: SchemaSlot['side'] = 'output';
  const rewrite = (schema: JsonSchema, name: string): JsonSchema => {
    const text = coreText.get(schema) ?? '';
    if ((uses.get(text) ?? 0) < 2) return rewriteChildren({ ...schema }, name);
    const { core, annotations } = split(schema);
    let component = components.get(text);
    if (!component) {
      component = { body: {}, names: new Map(), sides: new Set() };
      components.set(text, component);
      component.body = rewriteChildren({ ...core }, name);
    }
    component.names.set(name, (component.names.get(name) ?? 0) + 1);
    component.sides.add(side);
    return { $ref: text, ...annotations };
  };
  const rewriteChildren = (schema: JsonSchema, name: string): JsonSchema => {
    for (const keyword of ['properties', 'patternProperties', '$defs', 'dependentSchemas']) {
      if (isSchema(schema[keyword])) schema[keyword] = { ...schema[keyword] };
    }
    for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      if (Array.isArray(schema[keyword])) schema[keyword] = [...schema[keyword]];
    }
    eachChild(schema, (child, hint, set) => set(rewrite(child, hint(name))));
    return schema;
  };
  for (const slot of slots) {
    side = slot.side;
    if (slot.holder.schema) slot.holder.schema = rewrite(slot.holder.schema, slot.name);
  }

  // 3. A component used once after all (its parent was shared, so it was counted once per copy of the parent) goes
  //    back where it is used.
  const refs = new Map<string, number>();
  const countRefs = (schema: JsonSchema) => {
    if (typeof schema.$ref === 'string' && components.has(schema.$ref)) refs.set(schema.$ref, (refs.get(schema.$ref) ?? 0) + 1);
    eachChild(schema, countRefs);
  };
  for (const slot of slots) if (slot.holder.schema) countRefs(slot.holder.schema);
  for (const { body } of components.values()) countRefs(body);
  const inline = (schema: JsonSchema): JsonSchema => {
    const ref = schema.$ref;
    if (typeof ref === 'string' && refs.get(ref) === 1) {
      const { $ref: _ref, ...annotations } = schema;
      const body = components.get(ref)?.body ?? {};
      return inlineChildren({ ...body, ...annotations });
    }
    return inlineChildren(schema);
  };
  const inlineChildren = (schema: JsonSchema): JsonSchema => {
    eachChild(schema, (child, _hint, set) => set(inline(child)));
    return schema;
  };
  for (const slot of slots) if (slot.holder.schema) slot.holder.schema = inline(slot.holder.schema);
  const kept = [...components.entries()].filter(([text]) => (refs.get(text) ?? 0) > 1);
  for (const [, component] of kept) inlineChildren(component.body);

  // 4. Names: the most frequent place a component is used, made unique; then the `$ref`s point at them.
  const taken = new Set(Object.keys(reserved));
  for (const [, component] of kept.sort(([a], [b]) => (refs.get(b) ?? 0) - (refs.get(a) ?? 0))) {
    const [best] = [...component.names.entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || a[0].localeCompare(b[0]));
    const base = best?.[0] || 'Schema';
    // A field sent and answered in two shapes: the one only ever sent says so before resorting to a number.
    const sent = component.sides.size === 1 && component.sides.has('input') && !base.endsWith('Body') ? `${base}Input` : base;
    let name = taken.has(base) ? sent : base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    component.name = name;
  }
  const pointer = (text: string) => `#/components/schemas/${components.get(text)?.name ?? ''}`;
  const point = (schema: JsonSchema): JsonSchema => {
    if (typeof schema.$ref === 'string' && components.has(schema.$ref)) schema.$ref = pointer(schema.$ref);
    eachChild(schema, point);
    return schema;
  };
  for (const slot of slots) if (slot.holder.schema) point(slot.holder.schema);
  const out: Record<string, JsonSchema> = { ...reserved };
  for (const [, component] of kept.sort(([, a], [, b]) => (a.name ?? '').localeCompare(b.name ?? ''))) {
    out[component.name ?? ''] = point(component.body);
  }
  return out;
}
