/**
 * What the server works out again and again from a short text a request repeats (its URL, its path, its client's
 * address): kept by that text, at most `max` entries and only for keys up to `maxKeyLength` characters, the whole memo
 * emptied when full rather than grown, so that a client sending new texts cannot make it grow. Only for values that
 * depend on the key alone.
 */
export class BoundedMemo<T> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly max: number,
    private readonly maxKeyLength = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key` when the key is short enough, and gives it back. */
  remember(key: string, value: T): T {
    if (key.length <= this.maxKeyLength) {
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
