import { useState } from "react";
import type { Entrypoint } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { EntrypointEditor } from "./EntrypointEditor.tsx";
import { ProviderList } from "./EntrypointProviders.tsx";
import type { Catalogs } from "./form-model.ts";
import { FieldsTable } from "./FieldsTable.tsx";
import { FormPreview } from "./FormPreview.tsx";

/** One entry point: its settings, its field configuration and the form it becomes; Edit opens the editor in place. */
export function EntrypointCard({
  clientId,
  ep,
  catalogs,
  onChanged,
}: {
  clientId: string;
  ep: Entrypoint;
  catalogs: Catalogs;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const yes = (b?: boolean) => (b ? t("common.yes") : t("common.no"));
  return (
    <article className="card entrypoint" aria-labelledby={`ep-${ep.id}`}>
      <div className="card-head">
        <div>
          <h3 id={`ep-${ep.id}`}>{ep.displayName}</h3>
          <p className="mono muted small">{ep.id}</p>
        </div>
        {!editing && (
          <button
            type="button"
            className="button"
            onClick={() => setEditing(true)}
            aria-label={`${t("ep.edit")}: ${ep.displayName}`}
          >
            {t("common.edit")}
          </button>
        )}
      </div>
      {editing ? (
        <EntrypointEditor
          clientId={clientId}
          initial={ep}
          catalogs={catalogs}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : (
        <div className="grid ep-grid">
          <div>
            <dl className="facts compact">
              <div>
                <dt>{t("ep.assisted")}</dt>
                <dd>{yes(ep.assisted)}</dd>
              </div>
              <div>
                <dt>{t("ep.passwordless")}</dt>
                <dd>{yes(ep.passwordless)}</dd>
              </div>
              <div>
                <dt>{t("ep.typologyRegister")}</dt>
                <dd className="mono">{ep.typology.register.id || "consumer"}</dd>
              </div>
              <div>
                <dt>{t("ep.typologyWork")}</dt>
                <dd className="mono">{ep.typology.work.id || ep.typology.register.id || "consumer"}</dd>
              </div>
              <div>
                <dt>{t("ep.providers")}</dt>
                <dd>
                  <ProviderList keys={ep.identityProviders} providers={catalogs.providers} />
                </dd>
              </div>
            </dl>
            <FieldsTable fields={ep.fields} formats={catalogs.formats} />
          </div>
          <FormPreview ep={ep} formats={catalogs.formats} />
        </div>
      )}
    </article>
  );
}
