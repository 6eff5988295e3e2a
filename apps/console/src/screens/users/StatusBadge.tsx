import { useI18n } from "../../i18n/index.tsx";

export function StatusBadge({ status }: { status: "active" | "locked" }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${status === "locked" ? "danger" : "ok"}`}>
      {t(status === "locked" ? "user.status.locked" : "user.status.active")}
    </span>
  );
}
