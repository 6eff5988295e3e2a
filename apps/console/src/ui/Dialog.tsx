import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useI18n } from "../i18n/index.tsx";
import { ErrorBox } from "./states.tsx";

/**
 * A modal confirmation step (native <dialog>: focus moves in and is trapped,
 * Escape cancels, focus returns to the button that opened it). The action's
 * error is shown inside; success closes it.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  canConfirm?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      setError(undefined);
      d.showModal();
    } else if (!props.open && d.open) d.close();
  }, [props.open]);

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {error !== undefined && <ErrorBox error={error} />}
        <div className="actions">
          <button type="button" className="button" onClick={props.onClose}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            className={`button ${props.danger ? "danger" : "primary"}`}
            disabled={busy || props.canConfirm === false}
          >
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
