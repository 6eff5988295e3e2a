import type { FieldConfig } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ID_KEYS, type Catalogs } from "./form-model.ts";

/** One fieldConfig in the editor: type, key, the flags its type allows, order. */
export function FieldRow(props: {
  field: FieldConfig;
  index: number;
  count: number;
  catalogs: Catalogs;
  onChange: (f: FieldConfig) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const { field: f, index: i } = props;
  const set = (patch: Partial<FieldConfig>) => props.onChange({ ...f, ...patch });
  const keys = f.type === "id" ? [...ID_KEYS] : props.catalogs.fields.map((c) => c.key);
  if (f.key && !keys.includes(f.key)) keys.unshift(f.key);
  const flag = (name: keyof FieldConfig, label: string) => (
    <label className="inline-check">
      <input type="checkbox" checked={Boolean(f[name])} onChange={(e) => set({ [name]: e.target.checked })} /> {label}
    </label>
  );
  const n = i + 1;
  return (
    <fieldset className="field-row">
      <legend className="visually-hidden">
        {t("ep.fields")} {n}
      </legend>
      <span className="row-number" aria-hidden="true">
        {n}
      </span>
      <label className="compact-field">
        <span>{t("ep.fieldType")}</span>
        <select
          value={f.type}
          onChange={(e) => {
            const type = e.target.value as FieldConfig["type"];
            props.onChange(
              type === "id"
                ? {
                    objectType: "fieldConfig",
                    type,
                    key: "email",
                    main: false,
                    mandatory: false,
                    requiresConfirmation: false,
                  }
                : { objectType: "fieldConfig", type, key: props.catalogs.fields[0]?.key ?? "name", mandatory: true },
            );
          }}
        >
          <option value="id">{t("ep.type.id")}</option>
          <option value="field">{t("ep.type.field")}</option>
        </select>
      </label>
      <label className="compact-field">
        <span>{t("ep.fieldKey")}</span>
        <select value={f.key} onChange={(e) => set({ key: e.target.value })}>
          {keys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <div className="flags">
        {f.type === "id" ? (
          <>
            {flag("main", t("ep.main"))}
            {flag("mandatory", t("ep.mandatory"))}
            {flag("requiresConfirmation", t("ep.requiresConfirmation"))}
            {f.key === "national_id" && flag("requiresVerification", t("ep.requiresVerification"))}
          </>
        ) : (
          <>
            <label className="inline-check">
              <input
                type="checkbox"
                checked={f.mandatory ?? true}
                onChange={(e) => set({ mandatory: e.target.checked })}
              />{" "}
              {t("ep.mandatory")}
            </label>
            {flag("useForValidation", t("ep.useForValidation"))}
            <label className="compact-field step">
              <span>{t("ep.step")}</span>
              <select value={f.step ?? 1} onChange={(e) => set({ step: Number(e.target.value) })}>
                <option value={1}>1</option>
                <option value={2}>2</option>
              </select>
            </label>
          </>
        )}
      </div>
      <div className="row-actions">
        <button
          type="button"
          className="icon-button"
          disabled={i === 0}
          onClick={() => props.onMove(-1)}
          aria-label={`${t("ep.moveUp")} (${n})`}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon-button"
          disabled={i === props.count - 1}
          onClick={() => props.onMove(1)}
          aria-label={`${t("ep.moveDown")} (${n})`}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon-button danger"
          disabled={props.count === 1}
          onClick={props.onRemove}
          aria-label={`${t("ep.remove")} (${n})`}
        >
          ✕
        </button>
      </div>
    </fieldset>
  );
}
