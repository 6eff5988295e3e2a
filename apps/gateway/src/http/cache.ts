/** Memoizes an async value for `ms`; concurrent callers share one load, failures are not kept. */
export function cached<T>(ms: number, load: () => Promise<T>): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (entry && Date.now() - entry.at < ms) return entry.value;
    const value = load();
    entry = { at: Date.now(), value };
    value.catch(() => {
      entry = undefined;
    });
    return value;
  };
}
