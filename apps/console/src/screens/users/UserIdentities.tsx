import { useState } from "react";
import { api } from "../../api/client.ts";
import type { User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { Notice } from "../../ui/states.tsx";

/** The user's linked providers (contract section 11), each with Remove: the audited admin unlink. */
export function UserIdentities({ user: u, onChanged }: { user: User; onChanged: (u: User) => void }) {
  const { t, when } = useI18n();
  const [removing, setRemoving] = useState<string>();
  const [notice, setNotice] = useState("");
  const path = `/users/${encodeURIComponent(String(u.id))}`;
  const unlink = async () => {
    const provider = removing!;
    await api("DELETE", `${path}/identities/${encodeURIComponent(provider)}`);
    onChanged((await api<{ user: User }>("GET", path)).user);
    setNotice(t("user.unlinked.ok", provider));
  };
  return (
    <section className="card" aria-labelledby="identities-title">
      <h2 id="identities-title">{t("user.identities")}</h2>
      {notice && <Notice>{notice}</Notice>}
      {!u.identities?.length ? (
        <p className="muted">{t("user.nothing")}</p>
      ) : (
        <dl className="facts">
          {u.identities.map((i) => (
            <div key={i.provider}>
              <dt className="mono">{i.provider}</dt>
              <dd>
                {i.email || i.subject} <span className="muted">({t("user.identityLinked", when(i.linked))})</span>{" "}
                <button
                  type="button"
                  className="button small danger-outline"
                  onClick={() => (setNotice(""), setRemoving(i.provider))}
                  aria-label={`${t("user.unlinkIdentity")} ${i.provider}`}
                >
                  {t("user.unlinkIdentity")}
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t("user.unlinkTitle", removing ?? "")}
        confirmLabel={t("user.unlinkIdentity")}
        danger
        onConfirm={unlink}
        onClose={() => setRemoving(undefined)}
      >
        <p>{t("user.unlinkConfirm")}</p>
      </ConfirmDialog>
    </section>
  );
}
