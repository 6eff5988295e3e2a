import type { ReactNode } from "react";
import type { Application } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";

function List({ items }: { items: string[] }) {
  if (!items.length) return <span className="muted">—</span>;
  return (
    <ul className="plain">
      {items.map((u) => (
        <li key={u} className="mono">
          {u}
        </li>
      ))}
    </ul>
  );
}

/** The application's settings and facts, read-only. */
export function AppSummary({ app }: { app: Application }) {
  const { t, when } = useI18n();
  const c = app.contact;
  const rows: [string, ReactNode][] = [
    [t("app.displayName"), app.displayName],
    [
      t("app.url"),
      <a href={app.url} target="_blank" rel="noreferrer noopener">
        {app.url}
      </a>,
    ],
    [t("app.redirectUris"), <List items={app.redirectUris} />],
    [t("app.whitelist"), <List items={app.whitelist} />],
    [
      t("app.defaultCallback"),
      app.defaultCallback ? (
        <span className="mono">{app.defaultCallback}</span>
      ) : (
        <span className="muted">{t("app.defaultCallbackHint")}</span>
      ),
    ],
    [t("app.mfa"), <span className={`badge mfa-${app.mfa}`}>{t(`app.mfa.${app.mfa}` as "app.mfa.off")}</span>],
    [t("app.captcha"), t(`app.captcha.${app.captcha}` as "app.captcha.off")],
    [
      t("app.smsPerHour"),
      app.smsPerHour === null ? <span className="muted">{t("app.smsPerHourNone")}</span> : app.smsPerHour,
    ],
    [
      t("app.phonePrefixes"),
      app.phonePrefixes.length ? (
        <span className="mono">{app.phonePrefixes.join(" ")}</span>
      ) : (
        <span className="muted">{t("app.phonePrefixesAny")}</span>
      ),
    ],
    [t("app.supportEmail"), c.support.schemaOrg.email.value],
    [t("app.supportMobile"), c.support.schemaOrg.mobile?.value ?? "—"],
    [t("app.projectManager"), c.projectManager.schemaOrg.email.value],
    [t("app.productOwner"), c.productOwner.schemaOrg.email.value],
    [t("app.organization"), <span className="mono">{app.organizationSchemaOrg.identifier}</span>],
    [t("app.brand"), app.organizationSchemaOrg.brand || "—"],
    [t("app.category"), app.schemaOrg?.applicationCategory || "—"],
    [t("apps.created"), when(app.created)],
    [t("app.updated"), when(app.updated)],
  ];
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
