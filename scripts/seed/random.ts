import { defined } from '../../src/shared/defined';
/** A seeded pseudo-random generator (mulberry32): the same seed gives the same demo data, run after run. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(values: readonly T[]): T;
  /** One value, drawn with the given weights. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `count` distinct values, in random order. */
  sample<T>(values: readonly T[], count: number): T[];
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const random: Random = {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (values) => defined(values[int(0, values.length - 1)], 'values[int(0, values.length - 1)]'),
    weighted(entries) {
      const sum = entries.reduce((s, [, w]) => s + w, 0);
      let r = next() * sum;
      for (const [value, weight] of entries) {
        r -= weight;
        if (r < 0) return value;
      }
      return defined(entries[entries.length - 1], 'entries[entries.length - 1]')[0];
    },
    sample(values, count) {
      const copy = [...values];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [defined(copy[j], 'copy[j]'), defined(copy[i], 'copy[i]')];
      }
      return copy.slice(0, Math.min(count, copy.length));
    },
  };
  return random;
}
