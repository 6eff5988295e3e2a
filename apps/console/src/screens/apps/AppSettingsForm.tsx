import { useState } from "react";
import { api } from "../../api/client.ts";
import type { Application } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { lines, Select, TextArea, TextField } from "../../ui/fields.tsx";
import { ActionForm, useAction } from "../../ui/ActionForm.tsx";

const person = (email: string, mobile?: string) => ({
  objectType: "person" as const,
  schemaOrg:
    mobile === undefined ? { email: { value: email } } : { email: { value: email }, mobile: { value: mobile } },
});

/** Edits displayName, url, redirect URIs, contacts, whitelist, default callback, MFA and the section 17 settings (PATCH; only what changed is sent). */
export function AppSettingsForm({
  app,
  onSaved,
  onCancel,
}: {
  app: Application;
  onSaved: (a: Application) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const c = app.contact;
  const [f, setF] = useState({
    displayName: app.displayName,
    url: app.url,
    redirectUris: app.redirectUris.join("\n"),
    whitelist: app.whitelist.join("\n"),
    defaultCallback: app.defaultCallback,
    mfa: app.mfa,
    captcha: app.captcha,
    smsPerHour: app.smsPerHour === null ? "" : String(app.smsPerHour),
    phonePrefixes: app.phonePrefixes.join(" "),
    support: c.support.schemaOrg.email.value,
    mobile: c.support.schemaOrg.mobile?.value ?? "",
    pm: c.projectManager.schemaOrg.email.value,
    po: c.productOwner.schemaOrg.email.value,
  });
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = async () => {
    const body: Record<string, unknown> = {};
    if (f.displayName !== app.displayName) body.displayName = f.displayName;
    if (f.url !== app.url) body.url = f.url;
    if (lines(f.redirectUris).join("\n") !== app.redirectUris.join("\n")) body.redirectUris = lines(f.redirectUris);
    if (lines(f.whitelist).join("\n") !== app.whitelist.join("\n")) body.whitelist = lines(f.whitelist);
    if (f.defaultCallback.trim() !== app.defaultCallback) body.defaultCallback = f.defaultCallback.trim();
    if (f.mfa !== app.mfa) body.mfa = f.mfa;
    if (f.captcha !== app.captcha) body.captcha = f.captcha;
    // Empty: no budget of its own (null); a number that is not whole reaches the API, which names the field.
    const budget = f.smsPerHour.trim() === "" ? null : Number(f.smsPerHour);
    if (budget !== app.smsPerHour) body.smsPerHour = budget;
    const prefixes = f.phonePrefixes.split(/[\s,]+/).filter(Boolean);
    if (prefixes.join(" ") !== app.phonePrefixes.join(" ")) body.phonePrefixes = prefixes;
    const contact: Record<string, unknown> = {};
    if (f.support !== c.support.schemaOrg.email.value || f.mobile !== (c.support.schemaOrg.mobile?.value ?? ""))
      contact.support = person(f.support, f.mobile);
    if (f.pm !== c.projectManager.schemaOrg.email.value) contact.projectManager = person(f.pm);
    if (f.po !== c.productOwner.schemaOrg.email.value) contact.productOwner = person(f.po);
    if (Object.keys(contact).length) body.contact = contact;
    if (!Object.keys(body).length) return onCancel();
    await run(async () => {
      onSaved(await api<Application>("PATCH", `/apps/${encodeURIComponent(app.id)}`, body));
    });
  };

  return (
    <ActionForm error={error} onSubmit={submit} busy={busy} onCancel={onCancel}>
      <TextField label={t("app.displayName")} value={f.displayName} onChange={set("displayName")} required />
      <TextField label={t("app.url")} type="url" value={f.url} onChange={set("url")} required />
      <TextArea
        label={t("app.redirectUris")}
        hint={t("common.onePerLine")}
        value={f.redirectUris}
        onChange={set("redirectUris")}
        className="mono"
      />
      <TextArea
        label={t("app.whitelist")}
        hint={t("common.onePerLine")}
        value={f.whitelist}
        onChange={set("whitelist")}
        className="mono"
      />
      <TextField
        label={t("app.defaultCallback")}
        hint={t("app.defaultCallbackHint")}
        type="url"
        value={f.defaultCallback}
        onChange={set("defaultCallback")}
      />
      <Select label={t("app.mfa")} value={f.mfa} onChange={set("mfa")}>
        {["off", "optional", "required"].map((m) => (
          <option key={m} value={m}>
            {t(`app.mfa.${m}` as "app.mfa.off")}
          </option>
        ))}
      </Select>
      <Select label={t("app.captcha")} hint={t("app.captchaHint")} value={f.captcha} onChange={set("captcha")}>
        {["off", "altcha"].map((m) => (
          <option key={m} value={m}>
            {t(`app.captcha.${m}` as "app.captcha.off")}
          </option>
        ))}
      </Select>
      <TextField
        label={t("app.smsPerHour")}
        hint={t("app.smsPerHourHint")}
        type="number"
        min={0}
        step={1}
        value={f.smsPerHour}
        onChange={set("smsPerHour")}
      />
      <TextField
        label={t("app.phonePrefixes")}
        hint={t("app.phonePrefixesHint")}
        value={f.phonePrefixes}
        onChange={set("phonePrefixes")}
        className="mono"
      />
      <fieldset>
        <legend>{t("app.contacts")}</legend>
        <TextField label={t("app.supportEmail")} type="email" value={f.support} onChange={set("support")} required />
        <TextField label={t("app.supportMobile")} type="tel" value={f.mobile} onChange={set("mobile")} required />
        <TextField label={t("app.projectManager")} type="email" value={f.pm} onChange={set("pm")} required />
        <TextField label={t("app.productOwner")} type="email" value={f.po} onChange={set("po")} required />
      </fieldset>
    </ActionForm>
  );
}
