import { useState } from "react";
import { api, query } from "../../api/client.ts";
import type { Assertion, Page } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { PagedList } from "../../ui/PagedList.tsx";
import { Notice } from "../../ui/states.tsx";
import { usePaged } from "../../ui/usePaged.ts";
import { PublishForm } from "./PublishForm.tsx";

/** /console/assertions: legal assertions with every version; publish a new one or a new version. */
export function Assertions() {
  const { t, lang, when } = useI18n();
  const list = usePaged((cursor) => api<Page<Assertion>>("GET", `/assertions${query({ cursor, limit: 50 })}`), []);
  const [publishing, setPublishing] = useState<Assertion | "new">();
  const [notice, setNotice] = useState("");
  const name = (a: Assertion) => a.displayName[lang] ?? a.displayName.en ?? Object.values(a.displayName)[0] ?? a.key;
  const action = (
    <button type="button" className="button primary" onClick={() => (setPublishing("new"), setNotice(""))}>
      + {t("assertions.new")}
    </button>
  );
  return (
    <Layout title={t("assertions.title")} actions={publishing ? undefined : action}>
      <p className="muted lead">{t("assertions.text")}</p>
      {notice && <Notice>{notice}</Notice>}
      {publishing && (
        <div className="card">
          <h2>{publishing === "new" ? t("assertions.new") : `${t("assertions.publishNew")}: ${publishing.key}`}</h2>
          <PublishForm
            from={publishing === "new" ? undefined : publishing}
            onCancel={() => setPublishing(undefined)}
            onPublished={(a) => {
              setPublishing(undefined);
              setNotice(t("assertions.published.ok", a.version, a.key));
              list.reload();
            }}
          />
        </div>
      )}
      <PagedList list={list} empty={t("assertions.empty")}>
        {(items) =>
          items.map((a) => (
            <article className="card assertion" key={a.key} aria-labelledby={`as-${a.key}`}>
              <div className="card-head">
                <div>
                  <h2 id={`as-${a.key}`}>{name(a)}</h2>
                  <p className="muted small">
                    <span className="mono">{a.key}</span> · {a.type} · {a.typology}
                    {a.property && ` · ${a.property}`}{" "}
                    {a.mandatory && <span className="badge warn">{t("assertions.mandatory")}</span>}
                  </p>
                </div>
                <button
                  type="button"
                  className="button"
                  onClick={() => (setPublishing(a), setNotice(""))}
                  aria-label={`${t("assertions.publishNew")}: ${a.key}`}
                >
                  {t("assertions.publishNew")}
                </button>
              </div>
              <table className="compact">
                <caption className="visually-hidden">{t("assertions.versions")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("assertions.version")}</th>
                    <th scope="col">{t("assertions.published")}</th>
                    <th scope="col">{t("assertions.name")}</th>
                    <th scope="col">{t("assertions.mandatory")}</th>
                  </tr>
                </thead>
                <tbody>
                  {(a.versions ?? [a]).map((v, i) => (
                    <tr key={v.version}>
                      <td className="mono">
                        {v.version} {i === 0 && <span className="badge ok">{t("assertions.latest")}</span>}
                      </td>
                      <td>{when(v.published)}</td>
                      <td>{name(v)}</td>
                      <td>{v.mandatory ? t("common.yes") : t("common.no")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </article>
          ))
        }
      </PagedList>
    </Layout>
  );
}
