import { useState } from "react";
import { api } from "../../api/client.ts";
import type { Assertion } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Checkbox, TextArea, TextField } from "../../ui/fields.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";

/** POST /admin/v1/assertions: a new assertion, or a new version of `from` (its key kept, its texts as a start). */
export function PublishForm({
  from,
  onPublished,
  onCancel,
}: {
  from?: Assertion;
  onPublished: (a: Assertion) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [f, setF] = useState({
    key: from?.key ?? "",
    en: from?.displayName.en ?? "",
    es: from?.displayName.es ?? "",
    type: from?.type ?? "terms",
    typology: from?.typology ?? "consumer",
    property: from?.property ?? "",
    mandatory: from?.mandatory ?? true,
    version: "",
  });
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = async () => {
    await run(async () => {
      const displayName: Record<string, string> = { en: f.en };
      if (f.es.trim()) displayName.es = f.es;
      const body = {
        key: f.key,
        displayName,
        type: f.type,
        typology: f.typology,
        mandatory: f.mandatory,
        version: f.version,
        ...(f.property ? { property: f.property } : {}),
      };
      onPublished(await api<Assertion>("POST", "/assertions", body));
    });
  };

  return (
    <ActionForm error={error} onSubmit={submit} busy={busy} onCancel={onCancel} submitLabel={t("assertions.publish")}>
      <div className="row">
        <TextField
          label={t("assertions.key")}
          value={f.key}
          onChange={set("key")}
          readOnly={Boolean(from)}
          required
          className="mono"
        />
        <TextField
          label={t("assertions.version")}
          value={f.version}
          onChange={set("version")}
          required
          className="mono"
          autoFocus
        />
      </div>
      <TextArea label={t("assertions.nameEn")} value={f.en} onChange={set("en")} required />
      <TextArea label={t("assertions.nameEs")} value={f.es} onChange={set("es")} />
      <div className="row">
        <TextField label={t("assertions.type")} value={f.type} onChange={set("type")} required />
        <TextField label={t("assertions.typology")} value={f.typology} onChange={set("typology")} required />
        <TextField
          label={t("assertions.property")}
          value={f.property}
          onChange={set("property")}
          placeholder="default"
        />
      </div>
      <Checkbox
        label={t("assertions.mandatory")}
        checked={f.mandatory}
        onChange={(e) => setF({ ...f, mandatory: e.target.checked })}
      />
    </ActionForm>
  );
}
