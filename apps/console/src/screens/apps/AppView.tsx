import { useState } from "react";
import { api } from "../../api/client.ts";
import type { Application } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ErrorBox, Loading, Notice } from "../../ui/states.tsx";
import { useAsync } from "../../ui/useAsync.ts";
import { AppPassword } from "./AppPassword.tsx";
import { AppSettingsForm } from "./AppSettingsForm.tsx";
import { AppSummary } from "./AppSummary.tsx";
import { Entrypoints } from "./Entrypoints.tsx";

/** /console/apps/{client_id}: the application, its settings, password and entry points. */
export function AppView({ clientId }: { clientId: string }) {
  const { t } = useI18n();
  const app = useAsync(() => api<Application>("GET", `/apps/${encodeURIComponent(clientId)}`), [clientId]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const title = app.data?.displayName ?? clientId;
  const back = (
    <Link to="/apps" className="button ghost">
      ← {t("nav.apps")}
    </Link>
  );
  return (
    <Layout title={title} actions={back}>
      {app.error !== undefined ? (
        <ErrorBox error={app.error} onRetry={app.reload} />
      ) : !app.data ? (
        <Loading />
      ) : (
        <>
          <p className="mono subtitle">{app.data.id}</p>
          {saved && <Notice>{t("common.saved")}</Notice>}
          <div className="grid two">
            <section className="card" aria-labelledby="settings-title">
              <div className="card-head">
                <h2 id="settings-title">{t("app.settings")}</h2>
                {!editing && (
                  <button type="button" className="button" onClick={() => (setEditing(true), setSaved(false))}>
                    {t("app.editSettings")}
                  </button>
                )}
              </div>
              {editing ? (
                <AppSettingsForm
                  app={app.data}
                  onCancel={() => setEditing(false)}
                  onSaved={(next) => {
                    app.setData(next);
                    setEditing(false);
                    setSaved(true);
                  }}
                />
              ) : (
                <AppSummary app={app.data} />
              )}
            </section>
            <AppPassword clientId={app.data.id} />
          </div>
          <Entrypoints app={app.data} onChanged={app.reload} />
        </>
      )}
    </Layout>
  );
}
