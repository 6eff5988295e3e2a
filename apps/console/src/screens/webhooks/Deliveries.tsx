import { useState } from "react";
import { api, query } from "../../api/client.ts";
import type { Page, WebhookDelivery } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { ErrorBox, Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";

const TONE = { delivered: "ok", pending: "", failed: "danger" } as const;

/** An endpoint's delivery log, newest first: event, status, attempts, last answer, next try; retry one now. */
export function Deliveries({ hookId }: { hookId: string }) {
  const { t, when } = useI18n();
  const base = `/webhooks/${encodeURIComponent(hookId)}/deliveries`;
  const list = usePaged(
    (cursor) => api<Page<WebhookDelivery>>("GET", `${base}${query({ cursor, limit: 25 })}`),
    [hookId],
  );
  const [notice, setNotice] = useState("");
  const [error, setError] = useState<unknown>();

  const retry = async (d: WebhookDelivery) => {
    setNotice("");
    setError(undefined);
    try {
      await api("POST", `${base}/${encodeURIComponent(d.id)}/retry`);
      setNotice(t("webhooks.retried", d.eventId));
      list.reload();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="section-head">
        <h2 id="deliveries-title">{t("webhooks.deliveries")}</h2>
        <button type="button" className="button small" onClick={list.reload}>
          {t("webhooks.refresh")}
        </button>
      </div>
      {notice && <Notice>{notice}</Notice>}
      {error !== undefined && <ErrorBox error={error} />}
      <PagedTable list={list} empty={t("webhooks.noDeliveries")}>
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("webhooks.event")}</th>
                <th scope="col">{t("users.status")}</th>
                <th scope="col">{t("webhooks.attempts")}</th>
                <th scope="col">{t("webhooks.lastCode")}</th>
                <th scope="col">{t("webhooks.nextTry")}</th>
                <th scope="col" className="actions-col">
                  <span className="visually-hidden">{t("user.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id}>
                  <td>
                    <div className="mono">{d.type}</div>
                    <div className="mono muted small">{d.eventId}</div>
                  </td>
                  <td>
                    <span className={`badge ${TONE[d.status]}`}>{t(`webhooks.status.${d.status}`)}</span>
                  </td>
                  <td>{d.attempts}</td>
                  <td title={d.lastError ?? undefined}>
                    {d.lastResponseCode ?? (d.lastError ? t("webhooks.noAnswer") : "—")}
                  </td>
                  <td>{d.nextAttempt ? when(d.nextAttempt) : "—"}</td>
                  <td className="row-buttons">
                    <button
                      type="button"
                      className="button small"
                      onClick={() => void retry(d)}
                      aria-label={`${t("webhooks.retry")} ${d.eventId}`}
                    >
                      {t("webhooks.retry")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </PagedTable>
    </section>
  );
}
