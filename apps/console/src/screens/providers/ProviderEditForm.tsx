import { useState } from "react";
import { api } from "../../api/client.ts";
import type { IdentityProvider } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";
import { Checkbox, TextField } from "../../ui/fields.tsx";

const ENDPOINTS = ["authorizationEndpoint", "tokenEndpoint", "userinfoEndpoint"] as const;

function initial(p: IdentityProvider) {
  return {
    displayName: p.displayName,
    clientId: p.clientId,
    clientSecret: "",
    scopes: p.scopes.join(" "),
    issuer: p.issuer ?? "",
    authorizationEndpoint: p.authorizationEndpoint ?? "",
    tokenEndpoint: p.tokenEndpoint ?? "",
    userinfoEndpoint: p.userinfoEndpoint ?? "",
  };
}

/**
 * Changes a provider (PATCH /admin/v1/identity-providers/{key}): only what the
 * operator changed is sent, so an untouched issuer is not fetched again and an
 * empty secret keeps the stored one. The key, type and preset stay.
 */
export function ProviderEditForm({
  provider: p,
  onSaved,
  onCancel,
}: {
  provider: IdentityProvider;
  onSaved: (p: IdentityProvider) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const start = initial(p);
  const [f, setF] = useState(start);
  const [trust, setTrust] = useState(p.trustEmail);
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = () =>
    run(async () => {
      const body: Record<string, unknown> = {};
      for (const k of ["displayName", "clientId", "issuer", ...ENDPOINTS] as const)
        if (f[k].trim() !== start[k]) body[k] = f[k].trim();
      if (f.clientSecret) body.clientSecret = f.clientSecret;
      const scopes = f.scopes.split(/[\s,]+/).filter(Boolean);
      if (scopes.join(" ") !== start.scopes) body.scopes = scopes;
      if (trust !== p.trustEmail) body.trustEmail = trust;
      onSaved(await api<IdentityProvider>("PATCH", `/identity-providers/${encodeURIComponent(p.key)}`, body));
    });

  return (
    <ActionForm className="form" error={error} onSubmit={submit} busy={busy} onCancel={onCancel}>
      <h3>{t("providers.editTitle", p.key)}</h3>
      <div className="row">
        <TextField label={t("providers.displayName")} value={f.displayName} onChange={set("displayName")} required />
        <TextField
          label={t("providers.scopes")}
          hint={t("providers.scopesHint")}
          value={f.scopes}
          onChange={set("scopes")}
          className="mono"
        />
      </div>
      {p.type === "oidc" ? (
        <TextField label={t("providers.issuer")} value={f.issuer} onChange={set("issuer")} type="url" required />
      ) : (
        <div className="row">
          {ENDPOINTS.map((k) => (
            <TextField key={k} label={t(`providers.${k}`)} value={f[k]} onChange={set(k)} type="url" required />
          ))}
        </div>
      )}
      <div className="row">
        <TextField label={t("providers.clientId")} value={f.clientId} onChange={set("clientId")} required />
        <TextField
          label={t("providers.newClientSecret")}
          hint={t("providers.newSecretHint")}
          value={f.clientSecret}
          onChange={set("clientSecret")}
          type="password"
          autoComplete="new-password"
        />
      </div>
      <Checkbox label={t("providers.trustEmail")} checked={trust} onChange={(e) => setTrust(e.target.checked)} />
    </ActionForm>
  );
}
