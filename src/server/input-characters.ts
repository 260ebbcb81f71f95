import { sharedFieldLabels } from '../shared/schemas/labels';
import { fieldLabelAt } from '../shared/validation-messages';
import { AppError } from './errors';
import { inputSchemaOf } from './input-schemas';

/**
 * Characters no text of the app may hold, refused wherever they are in an input:
 * - NUL: PostgreSQL's text cannot store it (SQLite's can, but no French text needs it);
 * - a lone UTF-16 surrogate (JSON's `"\ud800"`): it has no UTF-8 form, so both databases store U+FFFD instead, and
 *   a value checked as written no longer equals the value stored (a unit's name passed the duplicate check, then
 *   broke the unique index: a 500).
 */
export type InvalidCharacter = 'nul' | 'surrogate';

// With the `u` flag a class of surrogates matches only those not part of a pair.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

const invalidIn = (text: string): InvalidCharacter | null =>
  text.includes('\u0000') ? 'nul' : LONE_SURROGATE.test(text) ? 'surrogate' : null;

/**
 * Whether a string or key of a parsed input holds an invalid character, read without making anything: every input of
 * every call is checked (a kept answer's too), and almost none holds one.
 */
function holdsInvalidCharacter(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return invalidIn(value) !== null;
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsInvalidCharacter(item, depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record)
    if (Object.hasOwn(record, key) && (invalidIn(key) !== null || holdsInvalidCharacter(record[key], depth + 1))) return true;
  return false;
}

/** The first string (or key) of a parsed input holding an invalid character: its path and the character's kind. */
export function invalidCharacterAt(value: unknown): { path: string[]; kind: InvalidCharacter } | null {
  return holdsInvalidCharacter(value, 0) ? invalidCharacterPath(value, [], 0) : null;
}

function invalidCharacterPath(value: unknown, path: string[], depth: number): { path: string[]; kind: InvalidCharacter } | null {
  if (typeof value === 'string') {
    const kind = invalidIn(value);
    return kind ? { path, kind } : null;
  }
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = invalidCharacterPath(item, [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const kind = invalidIn(key);
    if (kind) return { path, kind };
    const found = invalidCharacterPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export const NUL_REFUSAL = 'Caractère nul interdit dans la saisie';
export const INVALID_CHARACTER = 'contient un caractère invalide';

/** The field's label from the procedure's schema, else the shared labels, else its path. */
function labelOf(procedurePath: string, path: string[]): string {
  const schema = inputSchemaOf(procedurePath);
  const numeric = path.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const key = path.findLast((p) => !/^\d+$/.test(p));
  return (schema && fieldLabelAt(schema, numeric)) ?? (key && sharedFieldLabels().byKey.get(key)) ?? path.join('.');
}

/** The French 400 for an input holding an invalid character, or null when it holds none. */
export function invalidCharacterRefusal(procedurePath: string, rawInput: unknown): AppError | null {
  const found = invalidCharacterAt(rawInput);
  if (!found) return null;
  const field = found.path.join('.');
  if (found.kind === 'nul')
    return new AppError(
      'BAD_REQUEST',
      field ? `${NUL_REFUSAL} (${field})` : NUL_REFUSAL,
      field ? { [field]: 'Caractère nul interdit' } : undefined,
    );
  if (!field) return new AppError('BAD_REQUEST', `La saisie ${INVALID_CHARACTER}`);
  return new AppError('BAD_REQUEST', `${labelOf(procedurePath, found.path)} ${INVALID_CHARACTER}`, {
    [field]: `Contient un caractère invalide`,
  });
}
