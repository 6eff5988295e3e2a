import { useCallback, useState } from "react";
import type { Page } from "../api/types.ts";
import { useAsync } from "./useAsync.ts";

/**
 * A cursor-paginated list (`content.items` + `content.next`): the cursors of
 * the pages seen are kept so Previous goes back; new inputs start again.
 */
export function usePaged<T>(load: (cursor: string | undefined) => Promise<Page<T>>, deps: unknown[]) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [key, setKey] = useState(JSON.stringify(deps));
  const depsKey = JSON.stringify(deps);
  if (key !== depsKey) {
    setKey(depsKey);
    setCursors([undefined]);
  }
  const cursor = cursors[cursors.length - 1];
  const state = useAsync(() => load(cursor), [depsKey, cursor]);
  const next = useCallback(() => state.data?.next && setCursors((c) => [...c, state.data!.next]), [state.data]);
  const previous = useCallback(() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)), []);
  return {
    ...state,
    page: cursors.length,
    hasNext: Boolean(state.data?.next),
    hasPrevious: cursors.length > 1,
    next,
    previous,
  };
}
