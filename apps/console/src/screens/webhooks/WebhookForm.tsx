import { useState } from "react";
import { api } from "../../api/client.ts";
import { EVENT_TYPES, type Webhook } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";
import { Checkbox, TextField } from "../../ui/fields.tsx";

/** Adds an endpoint (POST: the answer carries its secret) or changes one (PATCH): URL, events, application filter. */
export function WebhookForm({
  hook,
  onSaved,
  onCancel,
}: {
  hook?: Webhook;
  onSaved: (w: Webhook & { secret?: string }) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [f, setF] = useState({
    url: hook?.url ?? "",
    all: hook ? hook.events.includes("*") : true,
    events: new Set(hook?.events.filter((e) => e !== "*") ?? []),
    application: hook?.application ?? "",
    description: hook?.description ?? "",
    enabled: hook?.enabled ?? true,
  });
  const { busy, error, run } = useAction();

  const toggle = (type: string, on: boolean) => {
    const events = new Set(f.events);
    if (on) events.add(type);
    else events.delete(type);
    setF({ ...f, events });
  };

  const submit = () =>
    run(async () => {
      const body = {
        url: f.url.trim(),
        events: f.all ? ["*"] : EVENT_TYPES.filter((e) => f.events.has(e)),
        application: f.application.trim() || null,
        description: f.description,
        enabled: f.enabled,
      };
      const saved = hook
        ? await api<Webhook>("PATCH", `/webhooks/${encodeURIComponent(hook.id)}`, body)
        : await api<Webhook & { secret: string }>("POST", "/webhooks", body);
      onSaved(saved);
    });

  return (
    <ActionForm className="form" error={error} onSubmit={submit} busy={busy} onCancel={onCancel}>
      <TextField
        label={t("webhooks.url")}
        hint={t("webhooks.urlHint")}
        value={f.url}
        onChange={(e) => setF({ ...f, url: e.target.value })}
        required
        type="url"
        className="mono"
        autoFocus
      />
      <fieldset className="field">
        <legend>{t("webhooks.events")}</legend>
        <Checkbox
          label={t("webhooks.allEvents")}
          checked={f.all}
          onChange={(e) => setF({ ...f, all: e.target.checked })}
        />
        {!f.all && (
          <div className="checks">
            {EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                label={<span className="mono">{type}</span>}
                checked={f.events.has(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />
            ))}
          </div>
        )}
      </fieldset>
      <div className="row">
        <TextField
          label={t("webhooks.application")}
          hint={t("webhooks.applicationHint")}
          value={f.application}
          onChange={(e) => setF({ ...f, application: e.target.value })}
          className="mono"
        />
        <TextField
          label={t("webhooks.description")}
          value={f.description}
          maxLength={500}
          onChange={(e) => setF({ ...f, description: e.target.value })}
        />
      </div>
      <Checkbox
        label={t("webhooks.enabled")}
        checked={f.enabled}
        onChange={(e) => setF({ ...f, enabled: e.target.checked })}
      />
    </ActionForm>
  );
}
