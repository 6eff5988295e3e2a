import { useState } from "react";
import { api, ApiError } from "../../api/client.ts";
import type { IdentityProvider, Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { ProviderEditForm } from "./ProviderEditForm.tsx";
import { ProviderForm } from "./ProviderForm.tsx";

/** /console/identity-providers: social sign-in's providers (contract section 11); add, edit, delete (409 while offered). */
export function IdentityProviders() {
  const { t } = useI18n();
  const list = usePaged(() => api<Page<IdentityProvider>>("GET", "/identity-providers"), []);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<IdentityProvider>();
  const [deleting, setDeleting] = useState<IdentityProvider>();
  const [notice, setNotice] = useState("");
  const callback = `${location.origin}/oauth2/idp/callback`;

  const remove = async () => {
    const p = deleting!;
    try {
      await api("DELETE", `/identity-providers/${encodeURIComponent(p.key)}`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409)
        throw new ApiError(409, e.code, t("providers.inUse", p.key), e.details, e.items);
      throw e;
    }
    setNotice(t("providers.deleted", p.key));
    list.reload();
  };

  return (
    <Layout title={t("providers.title")}>
      <p className="lead">{t("providers.lead", callback)}</p>
      <div className="section-head">
        <h2>{t("providers.title")}</h2>
        {!adding && (
          <button
            type="button"
            className="button primary"
            onClick={() => (setAdding(true), setEditing(undefined), setNotice(""))}
          >
            + {t("providers.add")}
          </button>
        )}
      </div>
      {notice && <Notice>{notice}</Notice>}
      {adding && (
        <div className="card">
          <ProviderForm
            onCancel={() => setAdding(false)}
            onSaved={(p) => (setAdding(false), setNotice(t("providers.added", p.key)), list.reload())}
          />
        </div>
      )}
      {editing && (
        <div className="card">
          <ProviderEditForm
            key={editing.key}
            provider={editing}
            onCancel={() => setEditing(undefined)}
            onSaved={(p) => (setEditing(undefined), setNotice(t("providers.edited", p.key)), list.reload())}
          />
        </div>
      )}
      <PagedTable list={list} empty={t("providers.empty")}>
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("providers.key")}</th>
                <th scope="col">{t("providers.displayName")}</th>
                <th scope="col">{t("providers.type")}</th>
                <th scope="col">{t("providers.issuer")}</th>
                <th scope="col">{t("providers.clientId")}</th>
                <th scope="col">{t("providers.trusted")}</th>
                <th scope="col" className="actions-col">
                  <span className="visually-hidden">{t("user.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => (
                <tr key={p.key}>
                  <td className="mono">{p.key}</td>
                  <td>{p.displayName}</td>
                  <td>{p.preset ? `${p.type} (${p.preset})` : p.type}</td>
                  <td className="mono">{p.issuer ?? p.authorizationEndpoint}</td>
                  <td className="mono">{p.clientId}</td>
                  <td>{p.trustEmail ? t("common.yes") : t("common.no")}</td>
                  <td className="row-buttons">
                    <button
                      type="button"
                      className="button small"
                      onClick={() => (setEditing(p), setAdding(false), setNotice(""))}
                      aria-label={`${t("common.edit")} ${p.key}`}
                    >
                      {t("common.edit")}
                    </button>
                    <button
                      type="button"
                      className="button small danger-outline"
                      onClick={() => (setDeleting(p), setNotice(""))}
                      aria-label={`${t("common.delete")} ${p.key}`}
                    >
                      {t("common.delete")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </PagedTable>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t("providers.deleteTitle", deleting?.key ?? "")}
        confirmLabel={t("common.delete")}
        danger
        onConfirm={remove}
        onClose={() => setDeleting(undefined)}
      >
        <p>{t("providers.deleteConfirm")}</p>
      </ConfirmDialog>
    </Layout>
  );
}
