import { useState } from "react";
import { api } from "../../api/client.ts";
import { FIELD_FORMATS, type CatalogItem, type CatalogKind } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Select, TextField } from "../../ui/fields.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";

/** Adds a catalog item (POST) or changes its display name and format (PATCH). */
export function CatalogItemForm({
  kind,
  item,
  onSaved,
  onCancel,
}: {
  kind: CatalogKind;
  item?: CatalogItem;
  onSaved: (i: CatalogItem) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [f, setF] = useState({
    key: item?.key ?? "",
    displayName: item?.displayName ?? "",
    format: item?.format ?? "text",
  });
  const { busy, error, run } = useAction();
  const withFormat = kind === "fields";

  const submit = async () => {
    await run(async () => {
      const body = { displayName: f.displayName, ...(withFormat ? { format: f.format } : {}) };
      const saved = item
        ? await api<CatalogItem>("PATCH", `/catalogs/${kind}/${encodeURIComponent(item.key)}`, body)
        : await api<CatalogItem>("POST", `/catalogs/${kind}`, { key: f.key, ...body });
      onSaved(saved);
    });
  };

  return (
    <ActionForm className="form inline-form" error={error} onSubmit={submit} busy={busy} onCancel={onCancel}>
      <div className="row">
        {!item && (
          <TextField
            label={t("catalogs.key")}
            value={f.key}
            onChange={(e) => setF({ ...f, key: e.target.value })}
            required
            className="mono"
            autoFocus
          />
        )}
        <TextField
          label={t("catalogs.displayName")}
          value={f.displayName}
          onChange={(e) => setF({ ...f, displayName: e.target.value })}
          required
          autoFocus={Boolean(item)}
        />
        {withFormat && (
          <Select
            label={t("catalogs.format")}
            value={f.format}
            onChange={(e) => setF({ ...f, format: e.target.value })}
          >
            {FIELD_FORMATS.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </Select>
        )}
      </div>
    </ActionForm>
  );
}
