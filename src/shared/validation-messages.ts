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

/** A schema's own metadata, or its wrappers' (the first layer that has the key wins). */
function metaOf(schema: z.core.$ZodType, key: string): unknown {
  for (const layer of layers(schema)) {
    const value = z.globalRegistry.get(layer)?.[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The schemas met walking `path` from `root`, root first, as far as the schema knows the path (a union follows the
 * first option that knows it furthest).
 */
function trailAt(root: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType[] {
  let trails: z.core.$ZodType[][] = [[root]];
  for (const segment of path) {
    const next = trails.flatMap((trail) => {
      const last = trail[trail.length - 1];
      return last ? children(last, segment).map((child) => [...trail, child]) : [];
    });
    if (next.length === 0) break;
    trails = next;
  }
  return trails[0] ?? [root];
}

/**
 * A field named by its whole path ('Marges › première page › haut'), from the schema that asks for it
 * (`.meta({ pathLabels: true })`, e.g. the document template, whose `top` may be a margin's or a padding's):
 * the labels along the path, an item of a list as '<itemLabel> n' ('colonne 2', standing for the list's own label
 * 'colonnes') or, when the list names no item, 'ligne n' after the list's label. A segment the schema does not
 * label keeps its key.
 */
function pathLabel(trail: readonly z.core.$ZodType[], path: readonly PropertyKey[], from: number): string {
  const parts: string[] = [];
  for (let i = from; i < path.length; i++) {
    const segment = path[i];
    const parent = trail[i];
    const node = trail[i + 1];
    if (typeof segment === 'number') {
      const item = parent ? metaOf(parent, 'itemLabel') : undefined;
      parts.push(`${typeof item === 'string' ? item : 'ligne'} ${segment + 1}`);
      continue;
    }
    if (node && typeof path[i + 1] === 'number' && typeof metaOf(node, 'itemLabel') === 'string') continue;
    parts.push((node && ownLabel(node)) ?? String(segment));
  }
  const text = parts.join(' › ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Where the path form starts: after the last schema along the trail that asks for it, if any. */
function pathFormStart(trail: readonly z.core.$ZodType[]): number | undefined {
  let start: number | undefined;
  trail.forEach((node, i) => {
    if (metaOf(node, 'pathLabels') === true) start = i;
  });
  return start;
}

/** The label of the field an issue path points at: the last named segment's schema, found by walking from `root`. */
export function fieldLabelAt(root: z.core.$ZodType, path: readonly PropertyKey[]): string | undefined {
  return nameAt(root, path).label;
}

interface FieldName {
  label: string | undefined;
  /** Named by its whole path (the schema asked for it): the message says what is wrong in a few words. */
  pathForm: boolean;
}

function nameAt(root: z.core.$ZodType, path: readonly PropertyKey[]): FieldName {
  const trail = trailAt(root, path);
  const start = pathFormStart(trail);
  if (start !== undefined) return { label: pathLabel(trail, path, start) || undefined, pathForm: true };
  let label: string | undefined;
  for (const [i, segment] of path.entries()) {
    const node = trail[i + 1];
    if (!node) break;
    if (typeof segment !== 'number') label = ownLabel(node);
  }
  return { label, pathForm: false };
}

/** The issue fields the short texts read; Zod's issues have them. */
export interface IssueDetail extends IssueLike {
  code?: string;
  maximum?: unknown;
  minimum?: unknown;
  origin?: string;
  expected?: string;
}

/** What is wrong, in a few French words, without the field's name ('10 au plus'): beside the field, or after its path. */
export function shortIssueText(issue: IssueDetail): string {
  const unit = issue.origin === 'string' ? ' caractères' : '';
  if (issue.code === 'too_big') return `${String(issue.maximum)}${unit} au plus`;
  if (issue.code === 'too_small') return `${String(issue.minimum)}${unit} au moins`;
  if (issue.code === 'invalid_type')
    return issue.expected === 'int'
      ? 'Un nombre entier est attendu'
      : issue.expected === 'number'
        ? 'Un nombre est attendu'
        : 'Valeur manquante ou invalide';
  if (issue.code === 'invalid_value' || issue.code === 'invalid_union') return 'Valeur non reconnue';
  return issue.message; // our own messages (e.g. the colour format) are already French and specific
}

/** The short text of the issue at a schema that names its fields by path, else the issue's own message. */
export function fieldIssueText(root: z.core.$ZodType, issue: IssueDetail): string {
  return nameAt(root, issue.path).pathForm ? shortIssueText(issue) : issue.message;
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

function nameFor(source: LabelSource, path: readonly PropertyKey[]): FieldName {
  if ('_zod' in source) return nameAt(source, path);
  const last = [...path].reverse().find((p) => typeof p === 'string' && !/^\d+$/.test(p));
  return { label: typeof last === 'string' ? source.get(last) : undefined, pathForm: false };
}

/** A field the schema does not label is named by its path; the `data` of `{ id, data }` and `{ key, data }` inputs is the body the user wrote. */
const pathName = (path: readonly PropertyKey[]): string => (path[0] === 'data' ? path.slice(1) : path).map(String).join('.');

/**
 * One French message per offending field; a message that does not already name its field is prefixed with the
 * field's label ('Thème : Option invalide'), and a document line is named by its position as the editor numbers it
 * ('Ligne 3 — Quantité : …'). `known` lists the labels a message may open with to name its field itself
 * ('Frais de port : …'). A schema that names its fields by path (the document template) gets the path and a short
 * text: 'Marges › première page › haut : 10 au plus'.
 */
export function validationMessages(issues: readonly IssueDetail[], source: LabelSource, known: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  for (const issue of issues) {
    let text = issue.message;
    const name = nameFor(source, issue.path);
    if (name.pathForm) {
      text = name.label ? `${name.label} : ${shortIssueText(issue)}` : shortIssueText(issue);
    } else if (issue.path.length > 0) {
      const label = name.label ?? pathName(issue.path);
      // 'SIREN/SIRET' is named by a message about either.
      const named =
        label === '' ||
        label
          .toLowerCase()
          .split('/')
          .some((part) => text.toLowerCase().includes(part)) ||
        known.has(text.split(' : ')[0] ?? '');
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

/** A small form's one message (one field, or one line of fields): the first field's. */
export function firstMessage(issues: readonly IssueLike[]): string | undefined {
  return Object.values(fieldMessages(issues))[0];
}
