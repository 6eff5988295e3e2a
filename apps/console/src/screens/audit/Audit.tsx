import { useState } from "react";
import { api, query } from "../../api/client.ts";
import type { AuditItem, Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { navigate, useLocation } from "../../router.tsx";
import { TextField } from "../../ui/fields.tsx";
import { PagedTable } from "../../ui/PagedTable.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { usePaged } from "../../ui/usePaged.ts";

type Filters = Record<"actor" | "action" | "target" | "since", string>;

/** An RFC 3339 instant as a datetime-local value in this browser's time zone, and back. */
const toLocal = (iso: string) => {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return "";
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : "");

/** /console/audit: every service's audit log, newest first, filtered by actor, action, target and time. */
export function Audit() {
  const { t, when } = useI18n();
  const { params } = useLocation();
  const applied: Filters = {
    actor: params.get("actor") ?? "",
    action: params.get("action") ?? "",
    target: params.get("target") ?? "",
    since: params.get("since") ?? "",
  };
  const [f, setF] = useState<Filters>({ ...applied, since: toLocal(applied.since) });
  const key = JSON.stringify(applied);
  // Filters applied from elsewhere (Back, a link) show in the form.
  const [shown, setShown] = useState(key);
  if (shown !== key) {
    setShown(key);
    setF({ ...applied, since: toLocal(applied.since) });
  }
  const list = usePaged(
    (cursor) => api<Page<AuditItem>>("GET", `/audit${query({ ...applied, cursor, limit: 50 })}`),
    [key],
  );
  const apply = (next: Filters) => navigate(`/audit${query({ ...next, since: fromLocal(next.since) })}`);

  return (
    <Layout title={t("audit.title")}>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply(f);
        }}
      >
        <TextField
          label={t("audit.actor")}
          placeholder={t("audit.actorHint")}
          value={f.actor}
          onChange={(e) => setF({ ...f, actor: e.target.value })}
        />
        <TextField
          label={t("audit.action")}
          placeholder="client_secret.reveal"
          value={f.action}
          onChange={(e) => setF({ ...f, action: e.target.value })}
        />
        <TextField
          label={t("audit.target")}
          value={f.target}
          onChange={(e) => setF({ ...f, target: e.target.value })}
        />
        <TextField
          label={t("audit.since")}
          type="datetime-local"
          value={f.since}
          onChange={(e) => setF({ ...f, since: e.target.value })}
        />
        <div className="filter-buttons">
          <button type="submit" className="button primary">
            {t("audit.filter")}
          </button>
          <button
            type="button"
            className="button ghost"
            onClick={() => apply({ actor: "", action: "", target: "", since: "" })}
          >
            {t("audit.clear")}
          </button>
        </div>
      </form>
      <PagedTable list={list} empty={t("audit.empty")} className="audit">
        {(items) => (
          <>
            <thead>
              <tr>
                <th scope="col">{t("audit.time")}</th>
                <th scope="col">{t("audit.actor")}</th>
                <th scope="col">{t("audit.action")}</th>
                <th scope="col">{t("audit.target")}</th>
                <th scope="col">{t("audit.address")}</th>
                <th scope="col">{t("audit.details")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap">{when(e.time)}</td>
                  <td className="mono">
                    {typeof e.details.actorEmail === "string" && (
                      <span className="actor-email">{e.details.actorEmail}</span>
                    )}
                    {e.actor}
                  </td>
                  <td>
                    <span className="badge">{e.action}</span>
                  </td>
                  <td className="mono">{e.target}</td>
                  <td className="mono">{e.address || "—"}</td>
                  <td className="small details">
                    <code className="mono">{Object.keys(e.details).length ? JSON.stringify(e.details) : "—"}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </>
        )}
      </PagedTable>
    </Layout>
  );
}
