/**
 * What an isolate keeps for a while of what it read (key records, workspaces, opened connections): at
 * most `limit` entries, the oldest written going first, each until its own time.
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(private readonly limit: number) {}

  /** The value kept under `key`, unless there is none or its time is up. */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > now ? entry.value : undefined;
  }

  set(key: K, value: V, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
