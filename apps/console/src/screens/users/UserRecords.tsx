import type { User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { UserIdentities } from "./UserIdentities.tsx";

const text = (v: unknown) =>
  v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v);

/** What the user registered: identifiers (confirmed or pending), data, linked providers, addresses, accepted assertions. */
export function UserRecords({ user: u, onChanged }: { user: User; onChanged: (u: User) => void }) {
  const { t, when } = useI18n();
  const none = <p className="muted">{t("user.nothing")}</p>;
  return (
    <div className="grid two">
      <section className="card" aria-labelledby="ids-title">
        <h2 id="ids-title">{t("user.ids")}</h2>
        {Object.keys(u.ids).length === 0 ? (
          none
        ) : (
          <dl className="facts">
            {Object.entries(u.ids).map(([k, id]) => (
              <div key={k}>
                <dt className="mono">{k}</dt>
                <dd>
                  {id.value}{" "}
                  <span className={`badge ${id.confirmed ? "ok" : "warn"}`}>
                    {id.confirmed ? t("user.confirmed") : t("user.unconfirmed")}
                  </span>
                  {id.pending && <div className="muted small">{t("user.pending", id.pending.value)}</div>}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section className="card" aria-labelledby="datas-title">
        <h2 id="datas-title">{t("user.datas")}</h2>
        {Object.keys(u.datas).length === 0 ? (
          none
        ) : (
          <dl className="facts">
            {Object.entries(u.datas).map(([k, d]) => (
              <div key={k}>
                <dt className="mono">{k}</dt>
                <dd>{text(d.value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <UserIdentities user={u} onChanged={onChanged} />
      <section className="card" aria-labelledby="addresses-title">
        <h2 id="addresses-title">{t("user.addresses")}</h2>
        {Object.keys(u.addresses).length === 0
          ? none
          : Object.entries(u.addresses).map(([k, a]) => (
              <p key={k}>
                <span className="mono">{k}</span>:{" "}
                {[a.streetAddress, a.postalCode, a.addressLocality, a.addressRegion, a.addressCountry]
                  .filter(Boolean)
                  .join(", ")}
              </p>
            ))}
      </section>
      <section className="card" aria-labelledby="assertions-title">
        <h2 id="assertions-title">{t("user.assertions")}</h2>
        {Object.keys(u.assertions).length === 0 ? (
          none
        ) : (
          <dl className="facts">
            {Object.entries(u.assertions).map(([k, a]) => (
              <div key={k}>
                <dt className="mono">{k}</dt>
                <dd>
                  {a.value ? t("common.yes") : t("common.no")} {a.version && <span className="mono">v{a.version}</span>}{" "}
                  <span className="muted small">{when(a.accepted)}</span>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}
