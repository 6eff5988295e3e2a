import { api } from "../../api/client.ts";
import type { User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ErrorBox, Loading } from "../../ui/states.tsx";
import { useAsync } from "../../ui/useAsync.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { UserActions } from "./UserActions.tsx";
import { UserRecords } from "./UserRecords.tsx";

/** /console/users/{id}: the account (status, last login, sessions, MFA), its data, and the operator's actions. */
export function UserView({ userId }: { userId: string }) {
  const { t, when } = useI18n();
  const user = useAsync(
    () => api<{ user: User }>("GET", `/users/${encodeURIComponent(userId)}`).then((c) => c.user),
    [userId],
  );
  const u = user.data;
  const title = u?.ids.email?.value ?? u?.ids.phone_number?.value ?? u?.ids.screen_name?.value ?? userId;
  const back = (
    <Link to="/users" className="button ghost">
      ← {t("nav.users")}
    </Link>
  );
  return (
    <Layout title={title} actions={back}>
      {user.error !== undefined ? (
        <ErrorBox error={user.error} onRetry={user.reload} />
      ) : !u ? (
        <Loading />
      ) : (
        <>
          <div className="grid two">
            <section className="card" aria-labelledby="account-title">
              <h2 id="account-title" className="visually-hidden">
                {t("users.status")}
              </h2>
              <dl className="facts">
                <div>
                  <dt>{t("users.status")}</dt>
                  <dd>
                    <StatusBadge status={u.status} />
                    {u.locked && (
                      <span className="muted small">
                        {" "}
                        {t("user.lockedSince")} {when(u.locked)}
                      </span>
                    )}
                  </dd>
                </div>
                <div>
                  <dt>{t("users.lastLogin")}</dt>
                  <dd>{u.lastLogin ? when(u.lastLogin) : t("common.never")}</dd>
                </div>
                <div>
                  <dt>{t("user.sessions")}</dt>
                  <dd>{u.sessions ?? "—"}</dd>
                </div>
                <div>
                  <dt>{t("user.mfa")}</dt>
                  <dd>{u.mfa ? t("user.mfa.on") : t("user.mfa.off")}</dd>
                </div>
                <div>
                  <dt>{t("user.passkeys")}</dt>
                  <dd>{u.passkeys ?? 0}</dd>
                </div>
                <div>
                  <dt>{t("users.id")}</dt>
                  <dd className="mono">{String(u.id)}</dd>
                </div>
                <div>
                  <dt>{t("user.pulseId")}</dt>
                  <dd className="mono">{u.pulse_id}</dd>
                </div>
                <div>
                  <dt>{t("users.created")}</dt>
                  <dd>{when(u.created)}</dd>
                </div>
                <div>
                  <dt>{t("user.updated")}</dt>
                  <dd>{when(u.updated)}</dd>
                </div>
              </dl>
            </section>
            <UserActions user={u} onChanged={user.setData} />
          </div>
          <UserRecords user={u} onChanged={user.setData} />
        </>
      )}
    </Layout>
  );
}
