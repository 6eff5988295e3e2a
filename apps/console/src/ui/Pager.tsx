import { useI18n } from "../i18n/index.tsx";

export function Pager({
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t } = useI18n();
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label="Pagination">
      <button type="button" className="button" disabled={!hasPrevious} onClick={onPrevious}>
        ← {t("common.previous")}
      </button>
      <span className="muted">{page}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={onNext}>
        {t("common.next")} →
      </button>
    </nav>
  );
}
