import { useEffect, useState } from 'react';

export interface Remote<T> {
  data?: T;
  error?: unknown;
  loading: boolean;
}

/**
 * Load something once per change of `key` (an agent id, a refresh counter). An answer that comes
 * after the key changed again is dropped, so a slow old answer never replaces a newer one.
 */
export function useRemote<T>(load: (() => Promise<T>) | undefined, key: unknown): Remote<T> {
  const [remote, setRemote] = useState<Remote<T>>({ loading: Boolean(load) });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` says when to load again; `load` is a new closure every render.
  useEffect(() => {
    if (!load) return setRemote({ loading: false });
    let current = true;
    setRemote((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setRemote({ data, loading: false }),
      (error: unknown) => current && setRemote((previous) => ({ ...previous, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [key, Boolean(load)]);
  return remote;
}
