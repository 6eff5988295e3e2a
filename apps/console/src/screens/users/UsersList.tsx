import { api, query } from "../../api/client.ts";
import type { Page, User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link, navigate, useLocation } from "../../router.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { SearchBar } from "../../ui/SearchBar.tsx";
import { useState } from "react";
import { takeFlash } from "../../ui/flash.ts";
import { Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { ExportUsers } from "./ExportUsers.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

/** /console/users?q=: users by email, phone, screen name, object id or pulse_id (exact or prefix). */
export function UsersList() {
  const { t, when } = useI18n();
  const q = useLocation().params.get("q") ?? "";
  const [flash] = useState(takeFlash);
  const list = usePaged((cursor) => api<Page<User>>("GET", `/users${query({ q, cursor, limit: 25 })}`), [q]);
  return (
    <Layout
      title={t("users.title")}
      actions={
        <Link to="/users/import" className="button primary">
          {t("import.title")}
        </Link>
      }
    >
      <SearchBar
        label={t("users.search")}
        hint={t("users.searchHint")}
        value={q}
        onSearch={(v) => navigate(`/users${query({ q: v })}`)}
      />
      {flash && <Notice>{flash}</Notice>}
      <details className="card">
        <summary>{t("export.title")}</summary>
        <ExportUsers />
      </details>
      <PagedTable list={list} empty={q ? t("users.empty") : t("users.emptyAll")}>
        {(items) => (
          <>
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
              {items.map((u) => (
                <tr key={String(u.id)}>
                  <td>
                    <Link to={`/users/${encodeURIComponent(String(u.id))}`}>
                      {u.ids.email?.value ?? u.ids.screen_name?.value ?? String(u.id)}
                    </Link>
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
          </>
        )}
      </PagedTable>
    </Layout>
  );
}
