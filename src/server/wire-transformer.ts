import superjson, { type SuperJSONResult } from 'superjson';

/**
 * How the server's answers cross the tRPC door: superjson's wire form, which the typed clients read back (dates,
 * Maps, undefined…). Nearly every answer is plain JSON already (rows of strings, numbers and nulls), and superjson's
 * walk of it — a path array and a map entry per node — cost more than the rest of the door on a small answer
 * (`npm run bench -- scale`). Plain JSON has the form `{ json: value }` with no `meta`, so it is given that form at once;
 * anything else takes superjson's own walk. tests/unit/wire-transformer.test.ts holds both to the same text.
 */
export const transformer = {
  serialize(value: unknown): SuperJSONResult {
    return isPlainJson(value, new Set()) ? { json: value as SuperJSONResult['json'] } : superjson.serialize(value);
  },
  /** `inPlace`: the wire form was parsed for this call alone, so it is read back without a copy. */
  deserialize<T = unknown>(payload: SuperJSONResult, options?: { inPlace?: boolean }): T {
    return superjson.deserialize<T>(payload, options);
  },
};

/**
 * Whether superjson would write `value` as it stands, with no `meta`: strings, booleans, null, finite numbers but -0,
 * arrays (plain, without holes or other keys: superjson walks every key of an array) and objects whose prototype is
 * Object's or none, holding only those, none of them twice (superjson notes a second reference to restore it), none
 * with a `toJSON` (superjson writes a copy, without it) and no key superjson refuses (`__proto__`, `constructor`,
 * `prototype`). A getter is read here and again by JSON.stringify: one answering differently each time is the only
 * value whose text could differ, and no answer holds one.
 */
function isPlainJson(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (seen.has(value) || 'toJSON' in value) return false;
  seen.add(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || Object.keys(value).length !== value.length) return false;
    for (const item of value) if (!isPlainJson(item, seen)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    if (!isPlainJson(record[key], seen)) return false;
  }
  return true;
}
