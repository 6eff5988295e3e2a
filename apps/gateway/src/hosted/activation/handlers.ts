import type { Client } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errorFacts, pickLocale, type Locale } from "@gatehouse/errors";
import type { RegistryService, UsersService } from "@gatehouse/proto";
import { crossSite } from "../kit/cross-site.ts";
import { withErrors } from "../kit/field-errors.ts";
import { passwordField, type FormField } from "../kit/form-model.ts";
import { labelOf } from "../kit/labels.ts";
import { renderForm, renderMessage } from "../kit/render.ts";
import { sendPage } from "../kit/send.ts";
import { ACTIVATION_TEXTS } from "./texts.ts";

const MAX_TOKEN = 200;

/** The page's language: the link's `ui_locales` (the message's language), else Accept-Language. */
function pageLang(req: FastifyRequest): Locale {
  const asked = (req.query as { ui_locales?: unknown }).ui_locales;
  return typeof asked === "string" && asked ? pickLocale(asked.replace(/ /g, ",")) : req.locale;
}

/**
 * The activation page of an assisted registration's message (contract
 * section 8, ACTIVATE_PATH?token=): GET shows the form to choose the password
 * (none for a passwordless entry point) and changes nothing (link previews
 * cannot spend it); the form posted back sets it, confirms the identifier the
 * link was sent to and ends "awaiting activation"; the link works once, for 7 days.
 */
export function activationPages(
  users: Client<typeof UsersService>,
  registry: Client<typeof RegistryService>,
  publicBaseUrl: string,
) {
  const appOf = async (clientId: string) => {
    const found = await registry.getApplication({ clientId }).catch(() => undefined);
    return { name: found?.application?.displayName || "", url: found?.application?.url || "" };
  };

  const invalid = (reply: FastifyReply, lang: Locale) => {
    const t = ACTIVATION_TEXTS[lang];
    return sendPage(reply, 400, renderMessage({ lang, title: t.activateInvalidTitle, text: t.activateInvalidText }));
  };

  /** The form: the identifier shown (and given to password managers), the new password, the token hidden. */
  async function showForm(
    reply: FastifyReply,
    lang: Locale,
    token: string,
    opts: { status?: number; violations?: { field: string; code: string }[] } = {},
  ) {
    const t = ACTIVATION_TEXTS[lang];
    let activation;
    try {
      activation = await users.getActivation({ activationToken: token });
    } catch (err) {
      if (errorFacts(err).reason === "INVALID_CODE") return invalid(reply, lang);
      throw err;
    }
    const who: FormField = {
      name: "username",
      id: "username",
      type: activation.key === "email" ? "email" : "tel",
      label: labelOf(lang, activation.key),
      required: false,
      value: activation.value,
      readonly: true,
      autocomplete: "username",
    };
    const { fields } = withErrors(
      activation.passwordless ? [who] : [{ ...who, required: true }, passwordField(lang, "new")],
      opts.violations ?? [],
      lang,
    );
    const html = renderForm({
      lang,
      appName: (await appOf(activation.clientId)).name,
      title: t.activateTitle,
      lead: activation.passwordless ? t.activatePasswordless : t.activateLead,
      action: "activate",
      hidden: [{ name: "token", value: token }],
      fields,
      primary: { label: t.activateButton },
    });
    return sendPage(reply, opts.status ?? 200, html);
  }

  return {
    async show(req: FastifyRequest, reply: FastifyReply) {
      const token = (req.query as { token?: unknown }).token;
      const lang = pageLang(req);
      if (typeof token !== "string" || !token || token.length > MAX_TOKEN) return invalid(reply, lang);
      return showForm(reply, lang, token);
    },

    async submit(req: FastifyRequest, reply: FastifyReply) {
      const lang = pageLang(req);
      const t = ACTIVATION_TEXTS[lang];
      if (crossSite(req, publicBaseUrl))
        return sendPage(reply, 403, renderMessage({ lang, title: t.activateTitle, text: t.forbidden }));
      const form = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof form.token === "string" ? form.token : "";
      const password = typeof form.password === "string" ? form.password : "";
      if (!token || token.length > MAX_TOKEN) return invalid(reply, lang);
      try {
        const done = await users.activateUser({
          caller: { clientAddress: req.ip, locale: lang, sourceId: "unknown" },
          activationToken: token,
          password,
        });
        const target = await appOf(done.clientId);
        // Only a web address becomes a link (the application's url is the operator's data, not ours to trust as a scheme).
        const links = /^https?:\/\//i.test(target.url)
          ? [{ href: target.url, label: t.continueTo(target.name || target.url) }]
          : [];
        return sendPage(
          reply,
          200,
          renderMessage({
            lang,
            appName: target.name,
            title: t.activatedTitle,
            text: t.activatedText(target.name || ""),
            links,
            primaryLink: true,
          }),
        );
      } catch (err) {
        const f = errorFacts(err);
        if (f.reason === "INVALID_CODE") return invalid(reply, lang);
        if (f.reason === "VALIDATION_FAILED")
          return showForm(reply, lang, token, { status: 400, violations: f.violations });
        throw err;
      }
    },
  };
}
