import { useSyncExternalStore } from "react";
import { getSession, sessionExpired, subscribe } from "./auth/store.ts";
import { useI18n } from "./i18n/index.tsx";
import { match, navigate, useLocation } from "./router.tsx";
import { AppView } from "./screens/apps/AppView.tsx";
import { AppsList } from "./screens/apps/AppsList.tsx";
import { Assertions } from "./screens/assertions/Assertions.tsx";
import { Audit } from "./screens/audit/Audit.tsx";
import { Callback } from "./screens/Callback.tsx";
import { Catalogs } from "./screens/catalogs/Catalogs.tsx";
import { IdentityProviders } from "./screens/providers/IdentityProviders.tsx";
import { SignIn } from "./screens/SignIn.tsx";
import { ImportUsers } from "./screens/users/ImportUsers.tsx";
import { UsersList } from "./screens/users/UsersList.tsx";
import { UserView } from "./screens/users/UserView.tsx";
import { WebhookView } from "./screens/webhooks/WebhookView.tsx";
import { WebhooksList } from "./screens/webhooks/WebhooksList.tsx";
import { CATALOG_KINDS, type CatalogKind } from "./api/types.ts";

/** The console's screens by path (under /console). */
export function App() {
  const { t } = useI18n();
  const session = useSyncExternalStore(subscribe, getSession);
  const { path, params } = useLocation();
  if (path === "/callback") return <Callback />;
  if (!session)
    return (
      <SignIn
        notice={sessionExpired() ? t("signIn.expired") : undefined}
        returnTo={path === "/" ? "/apps" : path + (params.size ? `?${params}` : "")}
      />
    );

  let m: Record<string, string> | undefined;
  if (path === "/apps") return <AppsList />;
  if ((m = match("/apps/:id", path))) return <AppView key={m.id} clientId={m.id!} />;
  if ((m = match("/catalogs/:kind", path)) && CATALOG_KINDS.includes(m.kind as CatalogKind))
    return <Catalogs kind={m.kind as CatalogKind} />;
  if (path === "/assertions") return <Assertions />;
  if (path === "/identity-providers") return <IdentityProviders />;
  if (path === "/users") return <UsersList />;
  if (path === "/users/import") return <ImportUsers />;
  if ((m = match("/users/:id", path))) return <UserView key={m.id} userId={m.id!} />;
  if (path === "/webhooks") return <WebhooksList />;
  if ((m = match("/webhooks/:id", path))) return <WebhookView key={m.id} hookId={m.id!} />;
  if (path === "/audit") return <Audit />;
  // "/" and unknown paths open the applications.
  queueMicrotask(() => navigate("/apps", { replace: true }));
  return null;
}
