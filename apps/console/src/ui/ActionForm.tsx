import { useState, type ReactNode } from "react";
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

/** A form that submits without leaving the page, its action's error shown above its fields. */
export function ActionForm({ className = "form", error, onSubmit, children }: { className?: string; error: unknown; onSubmit: () => Promise<void>; children: ReactNode }) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {error !== undefined && <ErrorBox error={error} />}
      {children}
    </form>
  );
}
