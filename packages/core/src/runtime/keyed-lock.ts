/** Serialises work per key: two writes to one file in one turn run one after the other. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)].sort();
    const previous = unique.map((key) => this.tails.get(key) ?? Promise.resolve());
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    for (const key of unique) this.tails.set(key, done);
    try {
      await Promise.all(previous);
      return await work();
    } finally {
      release();
      for (const key of unique) if (this.tails.get(key) === done) this.tails.delete(key);
    }
  }
}
