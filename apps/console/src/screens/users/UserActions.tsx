import { useState } from "react";
import { api } from "../../api/client.ts";
import type { User } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { navigate } from "../../router.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { download } from "../../ui/download.ts";
import { TextField } from "../../ui/fields.tsx";
import { setFlash } from "../../ui/flash.ts";
import { ErrorBox, Notice } from "../../ui/states.tsx";

type Ask = "lock" | "logout" | "passkeys" | "delete";

/** Lock/unlock, log out everywhere, remove passkeys, export, delete (typed confirmation); each audited by the API. */
export function UserActions({ user, onChanged }: { user: User; onChanged: (u: User) => void }) {
  const { t } = useI18n();
  const [ask, setAsk] = useState<Ask>();
  const [typed, setTyped] = useState("");
  const [notice, setNotice] = useState("");
  const [error, setError] = useState<unknown>();
  const id = String(user.id);
  const path = `/users/${encodeURIComponent(id)}`;
  const act = (what: "lock" | "unlock" | "logout", done: string) => async () => {
    const r = await api<{ user: User }>("POST", `${path}/${what}`);
    onChanged(r.user);
    setNotice(done);
  };
  const unlock = () => {
    setNotice("");
    setError(undefined);
    act("unlock", t("user.unlocked.ok"))().catch(setError);
  };
  const exportData = () => {
    setNotice("");
    setError(undefined);
    api<unknown>("GET", `${path}/export`).then((data) => {
      download(
        `user-${id.replace(/[^\w-]/g, "")}.json`,
        new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }),
      );
      setNotice(t("user.exported.ok"));
    }, setError);
  };
  const removePasskeys = async () => {
    const r = await api<{ user: User; removed: number }>("DELETE", `${path}/passkeys`);
    onChanged(r.user);
    setNotice(t("user.passkeysRemoved.ok", String(r.removed)));
  };
  const erase = async () => {
    await api("DELETE", path);
    setFlash(t("user.deleted.ok", id));
    navigate("/users");
  };
  const open = (a: Ask) => {
    setNotice("");
    setError(undefined);
    setTyped("");
    setAsk(a);
  };

  return (
    <section className="card" aria-labelledby="actions-title">
      <h2 id="actions-title">{t("user.actions")}</h2>
      {notice && <Notice>{notice}</Notice>}
      {error !== undefined && <ErrorBox error={error} />}
      <div className="stack">
        {user.status === "locked" ? (
          <button type="button" className="button" onClick={unlock}>
            {t("user.unlock")}
          </button>
        ) : (
          <button type="button" className="button danger-outline" onClick={() => open("lock")}>
            {t("user.lock")}
          </button>
        )}
        <button type="button" className="button" onClick={() => open("logout")}>
          {t("user.logout")}
        </button>
        {user.passkeys > 0 && (
          <button type="button" className="button" onClick={() => open("passkeys")}>
            {t("user.removePasskeys")}
          </button>
        )}
        <button type="button" className="button" onClick={exportData}>
          {t("user.export")}
        </button>
        <button type="button" className="button danger" onClick={() => open("delete")}>
          {t("user.delete")}
        </button>
      </div>
      <ConfirmDialog
        open={ask === "lock"}
        title={t("user.lockTitle")}
        confirmLabel={t("user.lock")}
        danger
        onConfirm={act("lock", t("user.locked.ok"))}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("user.lockConfirm")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === "logout"}
        title={t("user.logoutTitle")}
        confirmLabel={t("user.logout")}
        onConfirm={act("logout", t("user.logout.ok"))}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("user.logoutConfirm")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === "passkeys"}
        title={t("user.removePasskeysTitle")}
        confirmLabel={t("user.removePasskeys")}
        danger
        onConfirm={removePasskeys}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("user.removePasskeysConfirm")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === "delete"}
        title={t("user.deleteTitle")}
        confirmLabel={t("user.delete")}
        danger
        canConfirm={typed.trim() === id}
        onConfirm={erase}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("user.deleteConfirm")}</p>
        <TextField
          label={t("user.typeToConfirm", id)}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          className="mono"
        />
      </ConfirmDialog>
    </section>
  );
}
