import { useMemo, useState } from "react";
import { api } from "../../api/client.ts";
import type { Application, CatalogItem, IdentityProvider, Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Empty, Notice } from "../../ui/states.tsx";
import { useAsync } from "../../ui/useAsync.ts";
import { EntrypointCard } from "./EntrypointCard.tsx";
import { EntrypointEditor } from "./EntrypointEditor.tsx";
import type { Catalogs } from "./form-model.ts";

const all = (kind: string) => api<Page<CatalogItem>>("GET", `/catalogs/${kind}?limit=200`).then((p) => p.items);
// Unpaged: the list answers every provider at once.
const providersList = () => api<Page<IdentityProvider>>("GET", "/identity-providers").then((p) => p.items);

/** The application's entry points: each with its fields and the form they become; add and edit. */
export function Entrypoints({ app, onChanged }: { app: Application; onChanged: () => void }) {
  const { t } = useI18n();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState("");
  // The catalogs name the data fields (labels, input types), the typologies and the identity providers;
  // without them keys show as they are.
  const cat = useAsync(async () => {
    const [fields, typologies, providers] = await Promise.all([
      all("fields").catch(() => []),
      all("typologies").catch(() => []),
      providersList().catch(() => []),
    ]);
    return { fields, typologies, providers };
  }, []);
  const catalogs = useMemo<Catalogs>(() => {
    const fields = cat.data?.fields ?? [];
    return {
      fields,
      typologies: cat.data?.typologies ?? [],
      providers: cat.data?.providers ?? [],
      formats: new Map(fields.map((f) => [f.key, f])),
    };
  }, [cat.data]);

  return (
    <section className="section" aria-labelledby="ep-title">
      <div className="section-head">
        <h2 id="ep-title">{t("ep.title")}</h2>
        {!adding && (
          <button type="button" className="button primary" onClick={() => (setAdding(true), setNotice(""))}>
            + {t("ep.add")}
          </button>
        )}
      </div>
      {notice && <Notice>{notice}</Notice>}
      {adding && (
        <div className="card">
          <h3>{t("ep.add")}</h3>
          <EntrypointEditor
            clientId={app.id}
            catalogs={catalogs}
            onCancel={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              setNotice(t("ep.created"));
              onChanged();
            }}
          />
        </div>
      )}
      {app.entrypoints.length === 0 && !adding && <Empty>{t("ep.none")}</Empty>}
      {app.entrypoints.map((ep) => (
        <EntrypointCard key={ep.id} clientId={app.id} ep={ep} catalogs={catalogs} onChanged={onChanged} />
      ))}
    </section>
  );
}
