import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { signOut } from "../auth/flow.ts";
import { signedInEmail } from "../auth/identity.ts";
import { getSession, subscribe } from "../auth/store.ts";
import { useI18n, type Key } from "../i18n/index.tsx";
import { LANGUAGES, type Language } from "../i18n/language.ts";
import { Link, useLocation } from "../router.tsx";

const NAV: { to: string; key: Key; icon: string }[] = [
  { to: "/apps", key: "nav.apps", icon: "▦" },
  { to: "/catalogs/organizations", key: "nav.catalogs", icon: "☰" },
  { to: "/assertions", key: "nav.assertions", icon: "§" },
  { to: "/identity-providers", key: "nav.providers", icon: "⇄" },
  { to: "/users", key: "nav.users", icon: "◉" },
  { to: "/webhooks", key: "nav.webhooks", icon: "↗" },
  { to: "/audit", key: "nav.audit", icon: "≡" },
];

export function LanguageSwitch() {
  const { t, lang, setLang } = useI18n();
  return (
    <label className="language">
      <span className="visually-hidden">{t("nav.language")}</span>
      <select value={lang} onChange={(e) => setLang(e.target.value as Language)} aria-label={t("nav.language")}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {l === "en" ? "English" : "Español"}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The frame of every signed-in screen: sidebar navigation, top bar, the screen's content. */
export function Layout({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const { t, lang } = useI18n();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${t("app.title")}`;
  }, [title, t]);
  // The narrow screens' menu closes when a link in it is followed.
  const [menuPath, setMenuPath] = useState(path);
  if (menuPath !== path) {
    setMenuPath(path);
    setMenuOpen(false);
  }
  // After a navigation, focus goes to the new screen's heading (screen readers announce it).
  useEffect(() => heading.current?.focus({ preventScroll: true }), [path]);
  const section = "/" + (path.split("/")[1] ?? "");
  const email = signedInEmail(useSyncExternalStore(subscribe, getSession));
  return (
    <div className={`shell ${menuOpen ? "menu-open" : ""}`} lang={lang}>
      <a className="skip" href="#main">
        {t("nav.skip")}
      </a>
      <aside className="sidebar">
        <div className="brand">
          <span className="logo" aria-hidden="true" />
          <span>Gatehouse</span>
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {t("nav.menu")}
          </button>
        </div>
        <nav id="nav" aria-label={t("nav.main")}>
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={section === "/" + n.to.split("/")[1] ? "page" : undefined}>
                  <span className="icon" aria-hidden="true">
                    {n.icon}
                  </span>
                  {t(n.key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-foot">
          {email && (
            <p className="signed-in-as" data-testid="signed-in-as">
              <span>{t("nav.signedInAs")}</span> <strong>{email}</strong>
            </p>
          )}
          <LanguageSwitch />
          <button type="button" className="button ghost" onClick={() => void signOut()}>
            {t("nav.signOut")}
          </button>
        </div>
      </aside>
      <main id="main" className="content">
        <header className="page-head">
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {actions && <div className="page-actions">{actions}</div>}
        </header>
        {children}
      </main>
    </div>
  );
}
