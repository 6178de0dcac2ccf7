/**
 * Remembers the ids of recently applied frames so a resent frame is ACKed again but not applied twice. Bounded:
 * the oldest ids are forgotten first (resends arrive within seconds, long before they would be evicted).
 */
export class SeenFrames {
  private readonly ids = new Map<string, unknown>();
  constructor(private readonly capacity = 10_000) {}

  /** The value stored when `id` was first seen, or undefined. */
  get(id: string): unknown {
    return this.ids.get(id);
  }

  /** True when `id` was recorded before. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Record `id` (with an optional value, e.g. the ack status). */
  add(id: string, value: unknown = true): void {
    this.ids.set(id, value);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.keys().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
  }
}
