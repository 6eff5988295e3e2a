import { useState } from "react";
import { startSignIn } from "../auth/flow.ts";
import { useI18n } from "../i18n/index.tsx";
import { LanguageSwitch } from "../ui/Layout.tsx";
import { ErrorBox } from "../ui/states.tsx";

/** The signed-out screen: one button to Gatehouse's hosted login. */
export function SignIn({ notice, returnTo }: { notice?: string; returnTo: string }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const go = () => {
    setBusy(true);
    setError(undefined);
    startSignIn(returnTo).catch((e: unknown) => {
      setError(e);
      setBusy(false);
    });
  };
  return (
    <main className="signin">
      <div className="signin-card">
        <div className="brand large">
          <span className="logo" aria-hidden="true" />
          <span>Gatehouse</span>
        </div>
        <h1>{t("signIn.title")}</h1>
        {notice && (
          <p className="alert info" role="status">
            {notice}
          </p>
        )}
        <p className="muted">{t("signIn.text")}</p>
        {error !== undefined && <ErrorBox error={error} />}
        <button type="button" className="button primary wide" onClick={go} disabled={busy}>
          {busy ? t("signIn.redirecting") : t("signIn.button")}
        </button>
        <div className="signin-foot">
          <LanguageSwitch />
        </div>
      </div>
    </main>
  );
}
