import { useState } from "react";
import { api } from "../../api/client.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ConfirmDialog } from "../../ui/Dialog.tsx";
import { Secret } from "../../ui/Secret.tsx";

type Shown = { kind: "revealed" | "rotated"; password: string };

/** Reveal and rotate the application password, each behind a confirmation step (both audited by the API). */
export function AppPassword({ clientId }: { clientId: string }) {
  const { t } = useI18n();
  const [ask, setAsk] = useState<"reveal" | "rotate">();
  const [shown, setShown] = useState<Shown>();
  const path = `/apps/${encodeURIComponent(clientId)}/password`;

  const reveal = async () => {
    const r = await api<{ password: string }>("GET", path);
    setShown({ kind: "revealed", password: r.password });
  };
  const rotate = async () => {
    const r = await api<{ password: string }>("POST", `${path}/rotate`);
    setShown({ kind: "rotated", password: r.password });
  };

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{t("password.title")}</h2>
      <p className="muted">{t("password.text")}</p>
      {shown && (
        <div className={`secret-box ${shown.kind}`}>
          <p className="secret-label" id="secret-label">
            {shown.kind === "rotated" ? t("password.new") : t("password.current")}
          </p>
          <Secret value={shown.password} labelledBy="secret-label" />
          <button type="button" className="button ghost small" onClick={() => setShown(undefined)}>
            {t("password.hide")}
          </button>
        </div>
      )}
      <div className="actions start">
        <button type="button" className="button" onClick={() => setAsk("reveal")}>
          {t("password.reveal")}
        </button>
        <button type="button" className="button danger-outline" onClick={() => setAsk("rotate")}>
          {t("password.rotate")}
        </button>
      </div>
      <ConfirmDialog
        open={ask === "reveal"}
        title={t("password.revealTitle")}
        confirmLabel={t("password.reveal")}
        onConfirm={reveal}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("password.revealConfirm")}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === "rotate"}
        title={t("password.rotateTitle")}
        confirmLabel={t("password.rotate")}
        danger
        onConfirm={rotate}
        onClose={() => setAsk(undefined)}
      >
        <p>{t("password.rotateConfirm")}</p>
      </ConfirmDialog>
    </section>
  );
}
