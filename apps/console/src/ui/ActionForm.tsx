import { useState, type ReactNode } from "react";
import { useI18n } from "../i18n/index.tsx";
import { ErrorBox } from "./states.tsx";

/** A form's action: busy while it runs, and the error it ended in (the API's envelope), to show. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/**
 * A form that submits without leaving the page: its action's error above the
 * fields, Cancel and the submit button (busy while the action runs) below them.
 */
export function ActionForm(props: {
  className?: string;
  error: unknown;
  busy: boolean;
  submitLabel?: string;
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <form
      className={props.className ?? "form"}
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
    >
      {props.error !== undefined && <ErrorBox error={props.error} />}
      {props.children}
      <div className="actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={props.busy}>
          {props.busy ? t("common.saving") : (props.submitLabel ?? t("common.save"))}
        </button>
      </div>
    </form>
  );
}
