import { api, query } from "../../api/client.ts";
import type { Page, User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link, navigate, useLocation } from "../../router.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { Pager } from "../../ui/Pager.tsx";
import { SearchBar } from "../../ui/SearchBar.tsx";
import { useState } from "react";
import { takeFlash } from "../../ui/flash.ts";
import { Empty, ErrorBox, Loading, Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { StatusBadge } from "./StatusBadge.tsx";

/** /console/users?q=: users by email, phone, screen name, object id or pulse_id (exact or prefix). */
export function UsersList() {
  const { t, when } = useI18n();
  const q = useLocation().params.get("q") ?? "";
  const [flash] = useState(takeFlash);
  const list = usePaged((cursor) => api<Page<User>>("GET", `/users${query({ q, cursor, limit: 25 })}`), [q]);
  return (
    <Layout title={t("users.title")}>
      <SearchBar label={t("users.search")} hint={t("users.searchHint")} value={q} onSearch={(v) => navigate(`/users${query({ q: v })}`)} />
      {flash && <Notice>{flash}</Notice>}
      {list.error !== undefined ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <Empty>{q ? t("users.empty") : t("users.emptyAll")}</Empty>
      ) : (
        <div className="table-wrap" aria-busy={list.loading}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("users.email")}</th>
                <th scope="col">{t("users.phone")}</th>
                <th scope="col">{t("users.id")}</th>
                <th scope="col">{t("users.status")}</th>
                <th scope="col">{t("users.lastLogin")}</th>
                <th scope="col">{t("users.created")}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((u) => (
                <tr key={String(u.id)}>
                  <td>
                    <Link to={`/users/${encodeURIComponent(String(u.id))}`}>{u.ids.email?.value ?? u.ids.screen_name?.value ?? String(u.id)}</Link>
                  </td>
                  <td className="mono">{u.ids.phone_number?.value ?? "—"}</td>
                  <td className="mono">{String(u.id)}</td>
                  <td>
                    <StatusBadge status={u.status} />
                  </td>
                  <td>{u.lastLogin ? when(u.lastLogin) : t("common.never")}</td>
                  <td>{when(u.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={list.page} hasPrevious={list.hasPrevious} hasNext={list.hasNext} onPrevious={list.previous} onNext={list.next} />
    </Layout>
  );
}
