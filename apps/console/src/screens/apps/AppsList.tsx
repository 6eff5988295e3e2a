import { api, query } from "../../api/client.ts";
import type { Application, Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link, navigate, useLocation } from "../../router.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { SearchBar } from "../../ui/SearchBar.tsx";
import { usePaged } from "../../ui/usePaged.ts";

/** /console/apps?q=: applications by client_id prefix or name, a page at a time. */
export function AppsList() {
  const { t, when } = useI18n();
  const q = useLocation().params.get("q") ?? "";
  const list = usePaged((cursor) => api<Page<Application>>("GET", `/apps${query({ q, cursor, limit: 25 })}`), [q]);
  return (
    <Layout title={t("apps.title")}>
      <SearchBar
        label={t("apps.search")}
        hint={t("apps.searchHint")}
        value={q}
        onSearch={(v) => navigate(`/apps${query({ q: v })}`)}
      />
      <PagedTable list={list} empty={q ? t("apps.empty") : t("apps.emptyAll")}>
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("apps.name")}</th>
                <th scope="col">{t("apps.clientId")}</th>
                <th scope="col" className="num">
                  {t("apps.entrypoints")}
                </th>
                <th scope="col">{t("app.mfa")}</th>
                <th scope="col">{t("apps.created")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <tr key={a.id}>
                  <td>
                    <Link to={`/apps/${encodeURIComponent(a.id)}`}>{a.displayName}</Link>
                    <div className="muted small">{a.url}</div>
                  </td>
                  <td className="mono">{a.id}</td>
                  <td className="num">{a.entrypoints.length}</td>
                  <td>
                    <span className={`badge mfa-${a.mfa}`}>{t(`app.mfa.${a.mfa}` as "app.mfa.off")}</span>
                  </td>
                  <td>{when(a.created)}</td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </PagedTable>
    </Layout>
  );
}
