import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Loads data for the current inputs (`deps`, compared by value). `reload`
 * loads again keeping what is shown meanwhile; `setData` replaces it after a
 * change the caller already has the answer of. Answers to older inputs are dropped.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]) {
  const key = JSON.stringify(deps);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const [nonce, setNonce] = useState(0);
  const [result, setResult] = useState<{ key: string; data?: T; error?: unknown; settled: string }>();
  useEffect(() => {
    let live = true;
    const settled = `${key}#${nonce}`;
    loadRef.current().then(
      (data) => live && setResult({ key, data, settled }),
      (error: unknown) =>
        live && setResult((r) => ({ key, data: r?.key === key ? r.data : undefined, error, settled })),
    );
    return () => {
      live = false;
    };
  }, [key, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const setData = useCallback((data: T) => setResult({ key, data, settled: `${key}#${nonce}` }), [key, nonce]);
  const current = result?.key === key ? result : undefined;
  return {
    data: current?.data,
    error: current?.error,
    loading: result?.settled !== `${key}#${nonce}`,
    reload,
    setData,
  };
}
