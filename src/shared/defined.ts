/**
 * The checked form of TypeScript's non-null assertion (`x!`, which Biome refuses): the value, or an error naming
 * what was missing. For the places where a value is certain by construction (a regex group that matched, an index
 * within bounds) and a missing one would be a bug worth a clear message, not a silent `undefined` further on.
 */
export function defined<T>(value: T | null | undefined, what = 'valeur'): T {
  if (value === null || value === undefined) throw new Error(`Valeur manquante : ${what}`);
  return value;
}
