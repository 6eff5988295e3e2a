import type { ReactNode } from "react";
import { PagedList, type PagedListState } from "./PagedList.tsx";

/** A paged list shown as a table: PagedList's states and pager around the table `children` fills. */
export function PagedTable<T>({
  list,
  empty,
  className,
  children,
}: {
  list: PagedListState<T>;
  empty: ReactNode;
  className?: string;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <PagedList list={list} empty={empty}>
      {(items) => (
        <div className="table-wrap" aria-busy={list.loading}>
          <table className={className}>{children(items)}</table>
        </div>
      )}
    </PagedList>
  );
}
