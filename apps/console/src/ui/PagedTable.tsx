import type { ReactNode } from "react";
import { Pager } from "./Pager.tsx";
import { Empty, ErrorBox, Loading } from "./states.tsx";

interface PagedList<T> {
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

/** A paged list's states (error with retry, loading, empty) or its table, and the pager under it. */
export function PagedTable<T>({ list, empty, className, children }: { list: PagedList<T>; empty: ReactNode; className?: string; children: (items: T[]) => ReactNode }) {
  return (
    <>
      {list.error !== undefined ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <div className="table-wrap" aria-busy={list.loading}>
          <table className={className}>{children(list.data.items)}</table>
        </div>
      )}
      <Pager page={list.page} hasPrevious={list.hasPrevious} hasNext={list.hasNext} onPrevious={list.previous} onNext={list.next} />
    </>
  );
}
