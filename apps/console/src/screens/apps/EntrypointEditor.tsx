import { useState } from "react";
import { api } from "../../api/client.ts";
import type { Entrypoint, FieldConfig } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Checkbox, Select, TextField } from "../../ui/fields.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";
import type { Catalogs } from "./form-model.ts";
import { ProviderChecks } from "./EntrypointProviders.tsx";
import { FieldRow } from "./FieldRow.tsx";
import { FormPreview } from "./FormPreview.tsx";

const NEW: Entrypoint = {
  objectType: "entrypoint",
  displayName: "",
  fields: [
    { objectType: "fieldConfig", type: "id", key: "email", main: true, mandatory: true, requiresConfirmation: true },
  ],
  typology: { register: { objectType: "typology" }, work: { objectType: "typology" } },
};

/** The typology as the API takes it: an empty id is left out (its default applies). */
const typologyRef = (id?: string) =>
  id ? { objectType: "typology" as const, id } : { objectType: "typology" as const };

/** Adds (POST) or edits (PATCH) an entry point, with the form it becomes beside it, live. */
export function EntrypointEditor(props: {
  clientId: string;
  initial?: Entrypoint;
  catalogs: Catalogs;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [ep, setEp] = useState<Entrypoint>(props.initial ?? NEW);
  const { busy, error, run } = useAction();
  const setFields = (fields: FieldConfig[]) => setEp({ ...ep, fields });
  const move = (i: number, d: -1 | 1) => {
    const f = [...ep.fields];
    [f[i], f[i + d]] = [f[i + d]!, f[i]!];
    setFields(f);
  };

  const submit = async () => {
    const typology = { register: typologyRef(ep.typology.register.id), work: typologyRef(ep.typology.work.id) };
    const common = {
      displayName: ep.displayName,
      assisted: Boolean(ep.assisted),
      passwordless: Boolean(ep.passwordless),
      fields: ep.fields,
      typology,
      // Always sent: an empty list is how the last provider is taken off.
      identityProviders: ep.identityProviders ?? [],
    };
    const base = `/apps/${encodeURIComponent(props.clientId)}/entrypoints`;
    await run(async () => {
      if (props.initial?.id) await api("PATCH", `${base}/${encodeURIComponent(props.initial.id)}`, common);
      else await api("POST", base, { objectType: "entrypoint", ...(ep.key ? { key: ep.key } : {}), ...common });
      props.onSaved();
    });
  };

  const typologies = props.catalogs.typologies;
  const typologySelect = (which: "register" | "work", label: string) => (
    <Select
      label={label}
      hint={t("ep.typologyHint")}
      value={ep.typology[which].id ?? ""}
      onChange={(e) => setEp({ ...ep, typology: { ...ep.typology, [which]: typologyRef(e.target.value) } })}
    >
      <option value="">—</option>
      {typologies.map((ty) => (
        <option key={ty.key} value={ty.key}>
          {ty.displayName} ({ty.key})
        </option>
      ))}
    </Select>
  );

  return (
    <ActionForm className="form ep-editor" error={error} onSubmit={submit} busy={busy} onCancel={props.onCancel}>
      <div className="grid ep-grid">
        <div>
          <TextField
            label={t("ep.displayName")}
            value={ep.displayName}
            onChange={(e) => setEp({ ...ep, displayName: e.target.value })}
            required
          />
          {!props.initial && (
            <TextField
              label={t("ep.key")}
              hint={t("ep.keyHint")}
              value={ep.key ?? ""}
              onChange={(e) => setEp({ ...ep, key: e.target.value })}
              className="mono"
            />
          )}
          <div className="row">
            {typologySelect("register", t("ep.typologyRegister"))}
            {typologySelect("work", t("ep.typologyWork"))}
          </div>
          <Checkbox
            label={t("ep.assisted")}
            checked={Boolean(ep.assisted)}
            onChange={(e) => setEp({ ...ep, assisted: e.target.checked })}
          />
          <Checkbox
            label={t("ep.passwordless")}
            checked={Boolean(ep.passwordless)}
            onChange={(e) => setEp({ ...ep, passwordless: e.target.checked })}
          />
          <ProviderChecks
            providers={props.catalogs.providers}
            selected={ep.identityProviders}
            onChange={(identityProviders) => setEp({ ...ep, identityProviders })}
          />
          <h4>{t("ep.fields")}</h4>
          {ep.fields.map((f, i) => (
            <FieldRow
              key={i}
              field={f}
              index={i}
              count={ep.fields.length}
              catalogs={props.catalogs}
              onChange={(nf) => setFields(ep.fields.map((x, j) => (j === i ? nf : x)))}
              onMove={(d) => move(i, d)}
              onRemove={() => setFields(ep.fields.filter((_, j) => j !== i))}
            />
          ))}
          <button
            type="button"
            className="button"
            onClick={() =>
              setFields([
                ...ep.fields,
                {
                  objectType: "fieldConfig",
                  type: "field",
                  key: props.catalogs.fields[0]?.key ?? "name",
                  mandatory: true,
                },
              ])
            }
          >
            + {t("ep.addField")}
          </button>
        </div>
        <FormPreview ep={ep} formats={props.catalogs.formats} />
      </div>
    </ActionForm>
  );
}
