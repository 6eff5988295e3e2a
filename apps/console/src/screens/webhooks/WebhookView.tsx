import { useState } from "react";
import { api } from "../../api/client.ts";
import type { Webhook } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link, navigate } from "../../router.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ErrorBox, Loading } from "../../ui/states.tsx";
import { useAsync } from "../../ui/useAsync.ts";
import { Deliveries } from "./Deliveries.tsx";
import { EnabledBadge } from "./EnabledBadge.tsx";
import { WebhookForm } from "./WebhookForm.tsx";
import { WebhookSecret } from "./WebhookSecret.tsx";

/** /console/webhooks/{id}: the endpoint, its events and filter (edit), its secret (rotate), its deliveries (retry). */
export function WebhookView({ hookId }: { hookId: string }) {
  const { t, when } = useI18n();
  const path = `/webhooks/${encodeURIComponent(hookId)}`;
  const hook = useAsync(() => api<Webhook>("GET", path), [hookId]);
  const [editing, setEditing] = useState(false);
  const [ask, setAsk] = useState<"rotate" | "delete">();
  const [secret, setSecret] = useState<string>();
  const w = hook.data;
  const back = (
    <Link to="/webhooks" className="button ghost">
      ← {t("nav.webhooks")}
    </Link>
  );
  const rotate = async () => {
    const r = await api<Webhook & { secret: string }>("POST", `${path}/secret/rotate`);
    setSecret(r.secret);
    hook.setData(r);
  };
  const remove = async () => {
    await api("DELETE", path);
    navigate("/webhooks");
  };

  return (
    <Layout title={w?.url ?? hookId} actions={back}>
      {hook.error !== undefined ? (
        <ErrorBox error={hook.error} onRetry={hook.reload} />
      ) : !w ? (
        <Loading />
      ) : (
        <>
          <section className="card" aria-labelledby="hook-title">
            <h2 id="hook-title">{t("webhooks.endpoint")}</h2>
            {editing ? (
              <WebhookForm
                hook={w}
                onCancel={() => setEditing(false)}
                onSaved={(saved) => (setEditing(false), hook.setData(saved))}
              />
            ) : (
              <>
                <dl className="facts">
                  <div>
                    <dt>{t("webhooks.url")}</dt>
                    <dd className="mono">{w.url}</dd>
                  </div>
                  <div>
                    <dt>{t("users.status")}</dt>
                    <dd>
                      <EnabledBadge hook={w} />
                    </dd>
                  </div>
                  <div>
                    <dt>{t("webhooks.events")}</dt>
                    <dd className="mono">{w.events.includes("*") ? t("webhooks.allEvents") : w.events.join(", ")}</dd>
                  </div>
                  <div>
                    <dt>{t("webhooks.application")}</dt>
                    <dd className={w.application ? "mono" : undefined}>
                      {w.application ?? t("webhooks.anyApplication")}
                    </dd>
                  </div>
                  <div>
                    <dt>{t("webhooks.description")}</dt>
                    <dd>{w.description || "—"}</dd>
                  </div>
                  <div>
                    <dt>{t("webhooks.created")}</dt>
                    <dd>{when(w.created)}</dd>
                  </div>
                  {w.previousSecretExpires && (
                    <div>
                      <dt>{t("webhooks.previousSecret")}</dt>
                      <dd>{when(w.previousSecretExpires)}</dd>
                    </div>
                  )}
                </dl>
                {secret && <WebhookSecret secret={secret} rotated onHide={() => setSecret(undefined)} />}
                <div className="actions start">
                  <button type="button" className="button" onClick={() => setEditing(true)}>
                    {t("common.edit")}
                  </button>
                  <button type="button" className="button danger-outline" onClick={() => setAsk("rotate")}>
                    {t("webhooks.rotate")}
                  </button>
                  <button type="button" className="button danger-outline" onClick={() => setAsk("delete")}>
                    {t("common.delete")}
                  </button>
                </div>
              </>
            )}
          </section>
          <Deliveries hookId={hookId} />
          <ConfirmDialog
            open={ask === "rotate"}
            title={t("webhooks.rotateTitle")}
            confirmLabel={t("webhooks.rotate")}
            danger
            onConfirm={rotate}
            onClose={() => setAsk(undefined)}
          >
            <p>{t("webhooks.rotateConfirm")}</p>
          </ConfirmDialog>
          <ConfirmDialog
            open={ask === "delete"}
            title={t("webhooks.deleteTitle")}
            confirmLabel={t("common.delete")}
            danger
            onConfirm={remove}
            onClose={() => setAsk(undefined)}
          >
            <p>{t("webhooks.deleteConfirm")}</p>
          </ConfirmDialog>
        </>
      )}
    </Layout>
  );
}
