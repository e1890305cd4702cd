/**
 * A map that holds at most `limit` entries, the least recently used going first: for what is kept per
 * value a caller chooses (an origin, a key), so no caller can grow it without end.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, made by `make` when there is none. Either way it is now the most recent. */
  getOrMake(key: K, make: () => V): V {
    const value = this.entries.has(key) ? this.entries.get(key)! : make();
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }
}
