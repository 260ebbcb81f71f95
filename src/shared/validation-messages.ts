import { z } from 'zod';

/**
 * The one French error formatter. Fields carry their French label on the schema (`.meta({ label: 'Prix unitaire' })`),
 * and a validation issue is named by walking the schema along the issue's path: the server's 400 answers and the
 * client's forms say the same thing about the same field.
 */

export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/** The label a schema carries, if any (its own metadata, not its wrappers'). */
export function labelOf(schema: z.core.$ZodType): string | undefined {
  const label = z.globalRegistry.get(schema)?.label;
  return typeof label === 'string' ? label : undefined;
}

/** The schemas a value of `schema` may be checked by, outermost first: optional, default, pipe… down to the core. */
function layers(schema: z.core.$ZodType): z.core.$ZodType[] {
  const out: z.core.$ZodType[] = [];
  let current: z.core.$ZodType | undefined = schema;
  for (let depth = 0; current && depth < 20; depth++) {
    out.push(current);
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodReadonly ||
      current instanceof z.ZodCatch ||
      current instanceof z.ZodNonOptional
    )
      current = current.def.innerType;
    else if (current instanceof z.ZodPipe) current = current.def.in;
    else if (current instanceof z.ZodLazy) current = current.def.getter();
    else current = undefined;
  }
  return out;
}

/** The child schemas a path segment leads to (several for unions and intersections). */
function children(schema: z.core.$ZodType, segment: PropertyKey): z.core.$ZodType[] {
  return layers(schema).flatMap((layer): z.core.$ZodType[] => {
    if (layer instanceof z.ZodObject) {
      const field = typeof segment === 'string' ? layer.shape[segment] : undefined;
      return field ? [field] : [];
    }
    if (layer instanceof z.ZodArray) return typeof segment === 'number' ? [layer.element] : [];
    if (layer instanceof z.ZodTuple) return typeof segment === 'number' && layer.def.items[segment] ? [layer.def.items[segment]] : [];
    if (layer instanceof z.ZodRecord) return [layer.def.valueType];
    if (layer instanceof z.ZodUnion) return layer.def.options.flatMap((option) => children(option, segment));
    if (layer instanceof z.ZodIntersection) return [...children(layer.def.left, segment), ...children(layer.def.right, segment)];
    if (layer instanceof z.ZodPipe) return children(layer.def.out, segment);
    return [];
  });
}

const ownLabel = (schema: z.core.$ZodType): string | undefined =>
  layers(schema)
    .map(labelOf)
    .find((l) => l !== undefined);

/** The label of the field an issue path points at: the last named segment's schema, found by walking from `root`. */
export function fieldLabelAt(root: z.core.$ZodType, path: readonly PropertyKey[]): string | undefined {
  let nodes: z.core.$ZodType[] = [root];
  let label: string | undefined;
  for (const segment of path) {
    nodes = nodes.flatMap((node) => children(node, segment));
    if (nodes.length === 0) return label;
    if (typeof segment !== 'number') label = nodes.map(ownLabel).find((l) => l !== undefined);
  }
  return label;
}

/** Every label a schema tree carries, by the key of its field (the first one met wins), and all of them. */
export function labelsByKey(roots: readonly z.core.$ZodType[]): { byKey: Map<string, string>; all: Set<string> } {
  const found = new Map<string, string>();
  const all = new Set<string>();
  const seen = new Set<z.core.$ZodType>();
  const visit = (schema: z.core.$ZodType, key: string | undefined) => {
    for (const layer of layers(schema)) {
      const label = labelOf(layer);
      if (label !== undefined) all.add(label);
      if (key !== undefined && label !== undefined && !found.has(key)) found.set(key, label);
      if (seen.has(layer)) continue;
      seen.add(layer);
      if (layer instanceof z.ZodObject) for (const [name, field] of Object.entries(layer.shape)) visit(field, name);
      else if (layer instanceof z.ZodArray) visit(layer.element, key);
      else if (layer instanceof z.ZodRecord) visit(layer.def.valueType, key);
      else if (layer instanceof z.ZodUnion) for (const option of layer.def.options) visit(option, key);
      else if (layer instanceof z.ZodIntersection) {
        visit(layer.def.left, key);
        visit(layer.def.right, key);
      } else if (layer instanceof z.ZodPipe) visit(layer.def.out, key);
    }
  };
  for (const root of roots) visit(root, undefined);
  return { byKey: found, all };
}

/** Where labels come from: the schema that was parsed, or (when the caller no longer has it) the labels by key. */
export type LabelSource = z.core.$ZodType | ReadonlyMap<string, string>;

function labelFor(source: LabelSource, path: readonly PropertyKey[]): string | undefined {
  if ('_zod' in source) return fieldLabelAt(source, path);
  const last = [...path].reverse().find((p) => typeof p === 'string' && !/^\d+$/.test(p));
  return typeof last === 'string' ? source.get(last) : undefined;
}

/**
 * One French message per offending field; a message that does not already name its field is prefixed with the
 * field's label ('Thème : Option invalide'), and a document line is named by its position as the editor numbers it
 * ('Ligne 3 — Quantité : …'). `known` lists the labels a message may open with to name its field itself
 * ('Frais de port : …').
 */
export function validationMessages(issues: readonly IssueLike[], source: LabelSource, known: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  for (const issue of issues) {
    let text = issue.message;
    if (issue.path.length > 0) {
      const label = labelFor(source, issue.path) ?? issue.path.map(String).join('.');
      // 'SIREN/SIRET' is named by a message about either.
      const named =
        label
          .toLowerCase()
          .split('/')
          .some((part) => text.toLowerCase().includes(part)) || known.has(text.split(' : ')[0] ?? '');
      if (!named) text = `${label} : ${text}`;
      const at = issue.path.findIndex((p) => p === 'items' || p === 'lines');
      const line = issue.path[at + 1];
      if (at !== -1 && typeof line === 'number') text = `Ligne ${line + 1} — ${text}`;
    }
    seen.add(text);
  }
  return [...seen];
}

/**
 * A form's messages beside its fields: the first message of each field, keyed by the first `depth` segments of its
 * path ('address.city'); the form shows it next to the field, so the label is not repeated.
 */
export function fieldMessages(issues: readonly IssueLike[], depth = Number.POSITIVE_INFINITY): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length === 0 ? '_' : issue.path.slice(0, depth).map(String).join('.');
    out[key] ??= issue.message;
  }
  return out;
}
