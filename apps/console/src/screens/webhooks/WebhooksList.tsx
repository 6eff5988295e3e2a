import { useState } from "react";
import { api, query } from "../../api/client.ts";
import type { Page, Webhook } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { EnabledBadge } from "./EnabledBadge.tsx";
import { WebhookForm } from "./WebhookForm.tsx";
import { WebhookSecret } from "./WebhookSecret.tsx";

/** /console/webhooks: the endpoints; add one (its secret shown once, here). */
export function WebhooksList() {
  const { t, when } = useI18n();
  const list = usePaged((cursor) => api<Page<Webhook>>("GET", `/webhooks${query({ cursor, limit: 50 })}`), []);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ id: string; secret: string }>();
  return (
    <Layout title={t("webhooks.title")}>
      <p className="muted">{t("webhooks.text")}</p>
      <div className="section-head">
        <h2>{t("webhooks.endpoints")}</h2>
        {!adding && (
          <button type="button" className="button primary" onClick={() => (setAdding(true), setCreated(undefined))}>
            + {t("webhooks.add")}
          </button>
        )}
      </div>
      {created && (
        <div className="card">
          <WebhookSecret secret={created.secret} onHide={() => setCreated(undefined)} />
          <Link to={`/webhooks/${encodeURIComponent(created.id)}`}>{t("webhooks.open")}</Link>
        </div>
      )}
      {adding && (
        <div className="card">
          <WebhookForm
            onCancel={() => setAdding(false)}
            onSaved={(w) => {
              setAdding(false);
              setCreated({ id: w.id, secret: w.secret ?? "" });
              list.reload();
            }}
          />
        </div>
      )}
      <PagedTable list={list} empty={t("webhooks.empty")}>
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("webhooks.url")}</th>
                <th scope="col">{t("webhooks.events")}</th>
                <th scope="col">{t("webhooks.application")}</th>
                <th scope="col">{t("users.status")}</th>
                <th scope="col">{t("webhooks.created")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/webhooks/${encodeURIComponent(w.id)}`} className="mono">
                      {w.url}
                    </Link>
                    {w.description && <div className="muted small">{w.description}</div>}
                  </td>
                  <td className="mono small">
                    {w.events.includes("*") ? t("webhooks.allEvents") : w.events.join(", ")}
                  </td>
                  <td className={w.application ? "mono" : undefined}>
                    {w.application ?? t("webhooks.anyApplication")}
                  </td>
                  <td>
                    <EnabledBadge hook={w} />
                  </td>
                  <td>{when(w.created)}</td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </PagedTable>
    </Layout>
  );
}
