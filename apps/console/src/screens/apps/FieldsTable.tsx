import type { FieldConfig } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { isMandatory, stepOf, type Formats } from "./form-model.ts";

/** An entry point's fieldConfig list, read-only. */
export function FieldsTable({ fields, formats }: { fields: FieldConfig[]; formats: Formats }) {
  const { t } = useI18n();
  const flags = (f: FieldConfig) =>
    [
      f.main && t("ep.main"),
      isMandatory(f) && t("ep.mandatory"),
      f.requiresConfirmation && t("ep.requiresConfirmation"),
      f.requiresVerification && t("ep.requiresVerification"),
      f.useForValidation && t("ep.useForValidation"),
    ].filter(Boolean) as string[];
  return (
    <div className="table-wrap">
      <table className="compact">
        <caption className="visually-hidden">{t("ep.fields")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("ep.fieldKey")}</th>
            <th scope="col">{t("ep.fieldType")}</th>
            <th scope="col">{t("ep.step")}</th>
            <th scope="col">{t("ep.flags")}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => (
            <tr key={`${f.key}-${i}`}>
              <td>
                <span className="mono">{f.key}</span>
                {formats.get(f.key)?.displayName && (
                  <div className="muted small">{formats.get(f.key)!.displayName}</div>
                )}
              </td>
              <td>{t(f.type === "id" ? "ep.type.id" : "ep.type.field")}</td>
              <td>{stepOf(f)}</td>
              <td>
                {flags(f).map((x) => (
                  <span className="badge" key={x}>
                    {x}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
