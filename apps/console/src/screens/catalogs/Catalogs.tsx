import { useState } from "react";
import { api, ApiError, query } from "../../api/client.ts";
import { CATALOG_KINDS, type CatalogItem, type CatalogKind, type Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { CatalogItemForm } from "./CatalogItemForm.tsx";

/** /console/catalogs/{kind}: the five operator catalogs; add, rename, delete (409 in_use explained). */
export function Catalogs({ kind }: { kind: CatalogKind }) {
  const { t } = useI18n();
  const list = usePaged(
    (cursor) => api<Page<CatalogItem>>("GET", `/catalogs/${kind}${query({ cursor, limit: 50 })}`),
    [kind],
  );
  const [editing, setEditing] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<CatalogItem>();
  const [notice, setNotice] = useState("");
  const base = `/catalogs/${kind}`;

  const remove = async () => {
    const item = deleting!;
    try {
      await api("DELETE", `${base}/${encodeURIComponent(item.key)}`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409)
        throw new ApiError(409, e.code, t("catalogs.inUse", item.key), e.details, e.items);
      throw e;
    }
    setNotice(t("catalogs.deleted", item.key));
    list.reload();
  };

  return (
    <Layout title={t("catalogs.title")}>
      <nav className="tabs" aria-label={t("catalogs.kinds")}>
        {CATALOG_KINDS.map((k) => (
          <Link
            key={k}
            to={`/catalogs/${k}`}
            aria-current={k === kind ? "page" : undefined}
            onClick={() => (setAdding(false), setEditing(undefined), setNotice(""))}
          >
            {t(`catalogs.${k}`)}
          </Link>
        ))}
      </nav>
      <div className="section-head">
        <h2>{t(`catalogs.${kind}`)}</h2>
        {!adding && (
          <button type="button" className="button primary" onClick={() => (setAdding(true), setNotice(""))}>
            + {t("catalogs.add")}
          </button>
        )}
      </div>
      {notice && <Notice>{notice}</Notice>}
      {adding && (
        <div className="card">
          <CatalogItemForm
            kind={kind}
            onCancel={() => setAdding(false)}
            onSaved={(item) => {
              setAdding(false);
              setNotice(t("catalogs.added", item.key));
              list.reload();
            }}
          />
        </div>
      )}
      <PagedTable list={list} empty={t("catalogs.empty")}>
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("catalogs.key")}</th>
                <th scope="col">{t("catalogs.displayName")}</th>
                {kind === "fields" && <th scope="col">{t("catalogs.format")}</th>}
                <th scope="col" className="actions-col">
                  <span className="visually-hidden">{t("user.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) =>
                editing === item.key ? (
                  <tr key={item.key}>
                    <td colSpan={kind === "fields" ? 4 : 3}>
                      <CatalogItemForm
                        kind={kind}
                        item={item}
                        onCancel={() => setEditing(undefined)}
                        onSaved={() => (setEditing(undefined), list.reload())}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={item.key}>
                    <td className="mono">{item.key}</td>
                    <td>{item.displayName}</td>
                    {kind === "fields" && <td>{item.format ?? "text"}</td>}
                    <td className="row-buttons">
                      <button
                        type="button"
                        className="button small"
                        onClick={() => (setEditing(item.key), setNotice(""))}
                        aria-label={`${t("common.edit")} ${item.key}`}
                      >
                        {t("common.edit")}
                      </button>
                      <button
                        type="button"
                        className="button small danger-outline"
                        onClick={() => (setDeleting(item), setNotice(""))}
                        aria-label={`${t("common.delete")} ${item.key}`}
                      >
                        {t("common.delete")}
                      </button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </>
        )}
      </PagedTable>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t("catalogs.deleteTitle", deleting?.key ?? "")}
        confirmLabel={t("common.delete")}
        danger
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      >
        <p>{t("catalogs.deleteConfirm")}</p>
      </ConfirmDialog>
    </Layout>
  );
}
