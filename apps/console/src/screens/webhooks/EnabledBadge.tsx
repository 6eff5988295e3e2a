import type { Webhook } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";

/** On, off, or off because the receiver answered 410 Gone. */
export function EnabledBadge({ hook }: { hook: Webhook }) {
  const { t } = useI18n();
  if (hook.enabled) return <span className="badge ok">{t("webhooks.on")}</span>;
  return (
    <span className="badge danger">{hook.disabledReason === "gone" ? t("webhooks.gone") : t("webhooks.off")}</span>
  );
}
