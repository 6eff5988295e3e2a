import { useState } from "react";
import { api } from "../../api/client.ts";
import { PROVIDER_PRESETS, type IdentityProvider } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";
import { Checkbox, Select, TextField } from "../../ui/fields.tsx";

/** Registers a provider: a preset (Google, Apple…) or an OpenID Connect issuer; the issuer must answer (400 otherwise). */
export function ProviderForm({ onSaved, onCancel }: { onSaved: (p: IdentityProvider) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const [f, setF] = useState({ key: "", preset: "", displayName: "", issuer: "", clientId: "", clientSecret: "" });
  const [trust, setTrust] = useState(false);
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = () =>
    run(async () => {
      const body: Record<string, unknown> = { key: f.key, clientId: f.clientId, clientSecret: f.clientSecret };
      if (f.preset) body.preset = f.preset;
      if (f.displayName) body.displayName = f.displayName;
      if (f.issuer) body.issuer = f.issuer;
      if (trust) body.trustEmail = true;
      onSaved(await api<IdentityProvider>("POST", "/identity-providers", body));
    });

  return (
    <ActionForm className="form" error={error} onSubmit={submit} busy={busy} onCancel={onCancel}>
      <div className="row">
        <TextField label={t("providers.key")} value={f.key} onChange={set("key")} required className="mono" autoFocus />
        <Select label={t("providers.preset")} value={f.preset} onChange={set("preset")}>
          <option value="">{t("providers.none")}</option>
          {PROVIDER_PRESETS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </Select>
      </div>
      <div className="row">
        <TextField
          label={t("providers.displayName")}
          value={f.displayName}
          onChange={set("displayName")}
          required={!f.preset}
        />
        <TextField
          label={t("providers.issuer")}
          value={f.issuer}
          onChange={set("issuer")}
          type="url"
          required={!f.preset}
        />
      </div>
      <div className="row">
        <TextField label={t("providers.clientId")} value={f.clientId} onChange={set("clientId")} required />
        <TextField
          label={t("providers.clientSecret")}
          hint={t("providers.secretHint")}
          value={f.clientSecret}
          onChange={set("clientSecret")}
          type="password"
          autoComplete="off"
          required
        />
      </div>
      <Checkbox label={t("providers.trustEmail")} checked={trust} onChange={(e) => setTrust(e.target.checked)} />
    </ActionForm>
  );
}
