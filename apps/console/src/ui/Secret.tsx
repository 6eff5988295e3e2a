import { useState } from "react";
import { useI18n } from "../i18n/index.tsx";

/** A secret shown in full, selectable, with a copy button. */
export function Secret({ value, labelledBy }: { value: string; labelledBy?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="secret">
      <output className="mono" aria-labelledby={labelledBy} data-testid="secret-value">
        {value}
      </output>
      <button type="button" className="button small" onClick={() => void copy()}>
        {copied ? t("common.copied") : t("common.copy")}
      </button>
    </div>
  );
}
