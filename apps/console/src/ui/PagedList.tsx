import type { ReactNode } from "react";
import { Pager } from "./Pager.tsx";
import { Empty, ErrorBox, Loading } from "./states.tsx";

/** What usePaged gives a screen: the current page's items, its state, and the pager's moves. */
export interface PagedListState<T> {
  data?: { items: T[] };
  error: unknown;
  loading: boolean;
  reload: () => void;
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
}

/** A paged list's states (error with retry, loading, empty) or its items as `children` renders them, and the pager under it. */
export function PagedList<T>({
  list,
  empty,
  children,
}: {
  list: PagedListState<T>;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <>
      {list.error !== undefined ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        children(list.data.items)
      )}
      <Pager
        page={list.page}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </>
  );
}
