import { useI18n } from "../../i18n/index.tsx";
import { Secret } from "../../ui/Secret.tsx";

/** A signing secret, shown once (after creation or rotation): the API never shows it again. */
export function WebhookSecret({ secret, rotated, onHide }: { secret: string; rotated?: boolean; onHide: () => void }) {
  const { t } = useI18n();
  return (
    <div className="secret-box rotated" role="status">
      <p className="secret-label" id="webhook-secret-label">
        {rotated ? t("webhooks.secretRotated") : t("webhooks.secretNew")}
      </p>
      <Secret value={secret} labelledBy="webhook-secret-label" />
      <p className="muted small">{t("webhooks.secretOnce")}</p>
      <button type="button" className="button ghost small" onClick={onHide}>
        {t("password.hide")}
      </button>
    </div>
  );
}
