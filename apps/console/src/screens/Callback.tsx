import { useEffect, useRef, useState } from "react";
import { completeCallback, type CallbackOutcome } from "../auth/flow.ts";
import { useI18n } from "../i18n/index.tsx";
import { navigate } from "../router.tsx";
import { Loading } from "../ui/states.tsx";
import { SignIn } from "./SignIn.tsx";

/** /console/callback: the hosted login (or logout) comes back here. */
export function Callback() {
  const { t } = useI18n();
  const [outcome, setOutcome] = useState<CallbackOutcome>();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void completeCallback(new URLSearchParams(location.search)).then((o) => {
      if (o.kind === "signed-in") navigate(o.returnTo, { replace: true });
      else {
        // The code and state leave the address bar either way.
        history.replaceState(null, "", "/console/");
        setOutcome(o);
      }
    });
  }, []);
  if (!outcome) return <Loading label={t("signIn.completing")} />;
  if (outcome.kind === "signed-out") return <SignIn notice={t("signIn.signedOut")} returnTo="/apps" />;
  if (outcome.kind === "failed") {
    const notice = outcome.reason === "state" ? t("signIn.stateMismatch") : t("signIn.failed", outcome.message);
    return <SignIn notice={notice} returnTo="/apps" />;
  }
  return <Loading label={t("signIn.completing")} />;
}
