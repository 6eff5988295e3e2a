import { useId } from "react";
import type { Entrypoint } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { previewOf, type Formats } from "./form-model.ts";

/** The registration form an entry point's fields become, drawn as the hosted page draws it (inert). */
export function FormPreview({
  ep,
  formats,
}: {
  ep: Pick<Entrypoint, "fields" | "passwordless" | "displayName">;
  formats: Formats;
}) {
  const { t, lang } = useI18n();
  const id = useId();
  const steps = previewOf(ep, formats, lang, t("ep.password"));
  return (
    <figure className="preview" aria-labelledby={`${id}-cap`}>
      <figcaption id={`${id}-cap`}>{t("ep.preview")}</figcaption>
      <div className="preview-steps" inert>
        {steps.map((inputs, i) => (
          <div className="preview-form" key={i}>
            {steps.length > 1 && <p className="preview-step">{t("ep.previewStep", i + 1)}</p>}
            <p className="preview-title">{ep.displayName}</p>
            {inputs.map((f) =>
              f.type === "checkbox" ? (
                <label className="preview-check" key={f.key}>
                  <input type="checkbox" disabled tabIndex={-1} /> {f.label}
                  {f.required && <span className="req"> *</span>}
                </label>
              ) : (
                <label className="preview-input" key={f.key}>
                  <span>
                    {f.label}
                    {f.required && <span className="req"> *</span>}
                    {f.confirmation && <span className="tag">✓ {t("ep.requiresConfirmation")}</span>}
                  </span>
                  <input type={f.type} disabled tabIndex={-1} placeholder={f.type === "date" ? undefined : " "} />
                </label>
              ),
            )}
            <span className="preview-button">{i < steps.length - 1 ? t("ep.continue") : t("ep.submit")}</span>
          </div>
        ))}
      </div>
    </figure>
  );
}
