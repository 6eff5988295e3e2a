import type { ReactNode } from "react";
import { ApiError } from "../api/client.ts";
import { useI18n } from "../i18n/index.tsx";

type T = ReturnType<typeof useI18n>["t"];

/** An error in words: the API's localized message and each item, or what failed on the way. */
export function describeError(t: T, err: unknown): { message: string; items: string[]; code?: string } {
  if (err instanceof ApiError) {
    if (err.status === 0) return { message: t("error.network"), items: [] };
    const items = err.items.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message));
    const message =
      err.status === 403 && !err.message ? t("error.forbidden") : err.message || t("error.http", err.status);
    return { message, items, code: err.code };
  }
  return { message: err instanceof Error ? err.message : String(err), items: [] };
}

export function Loading({ label }: { label?: string }) {
  const { t } = useI18n();
  return (
    <div className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label ?? t("common.loading")}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function ErrorBox({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const { t } = useI18n();
  const e = describeError(t, error);
  return (
    <div className="alert error" role="alert">
      <strong>
        {title ?? (error instanceof ApiError && error.status === 409 ? t("error.conflictTitle") : t("error.title"))}
      </strong>
      <p>{e.message}</p>
      {e.items.length > 0 && (
        <ul>
          {e.items.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      {e.code && <p className="muted small">{t("error.code", e.code)}</p>}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t("common.retry")}
        </button>
      )}
    </div>
  );
}

/** A short confirmation of what just happened, announced to screen readers. */
export function Notice({ children, tone = "success" }: { children: ReactNode; tone?: "success" | "info" }) {
  return (
    <div className={`alert ${tone}`} role="status">
      {children}
    </div>
  );
}
