import formbody from "@fastify/formbody";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errorFacts, pickLocale, type Locale } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { passwordField, withErrors, type FormField } from "../../hosted/kit/form-model.ts";
import { renderForm, renderMessage } from "../../hosted/kit/render.ts";
import { HOSTED_TEXTS, labelOf } from "../../hosted/kit/texts.ts";
import { sendPage } from "../../hosted/kit/send.ts";

export const ACTIVATE_PATH = "/activityid/v1/user/activate";
const MAX_TOKEN = 200;

/** The page's language: the link's `ui_locales` (the message's language), else Accept-Language. */
function pageLang(req: FastifyRequest): Locale {
  const asked = (req.query as { ui_locales?: unknown }).ui_locales;
  return typeof asked === "string" && asked ? pickLocale(asked.replace(/ /g, ",")) : req.locale;
}

/** A cross-site POST (another origin's form) is refused: the token in the form is the secret, the origin check the belt. */
function crossSite(req: FastifyRequest, publicBaseUrl: string): boolean {
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = req.headers.origin;
  return origin !== undefined && origin !== "null" && origin !== new URL(publicBaseUrl).origin;
}

/**
 * GET {base_url}/activityid/v1/user/activate?token=: the link of an assisted
 * registration's activation message (contract section 8): a page to choose
 * the password (none for a passwordless entry point). POST the same path
 * (the form, with the token) sets it, confirms the identifier the link was
 * sent to and ends "awaiting activation"; the link works once, for 7 days.
 * Reading the page changes nothing (link previews cannot spend it).
 */
export const activateRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  if (!deps.users) return;
  const users = deps.users;
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  const appOf = async (clientId: string) => {
    const found = await deps.registry.getApplication({ clientId }).catch(() => undefined);
    return { name: found?.application?.displayName || "", url: found?.application?.url || "" };
  };

  const invalid = (reply: FastifyReply, lang: Locale) => {
    const t = HOSTED_TEXTS[lang];
    return sendPage(reply, 400, renderMessage({ lang, title: t.activateInvalidTitle, text: t.activateInvalidText }));
  };

  /** The form: the identifier shown (and given to password managers), the new password, the token hidden. */
  async function showForm(
    reply: FastifyReply,
    lang: Locale,
    token: string,
    opts: { status?: number; violations?: { field: string; code: string }[] } = {},
  ) {
    const t = HOSTED_TEXTS[lang];
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

  app.get(
    ACTIVATE_PATH,
    { exposeHeadRoute: false, schema: { summary: "Hosted activation page (assisted registration)", tags: ["users"] } },
    async (req, reply) => {
      const token = (req.query as { token?: unknown }).token;
      const lang = pageLang(req);
      if (typeof token !== "string" || !token || token.length > MAX_TOKEN) return invalid(reply, lang);
      return showForm(reply, lang, token);
    },
  );

  app.post(
    ACTIVATE_PATH,
    { schema: { summary: "Activate an account: set its password (assisted registration)", tags: ["users"] } },
    async (req, reply) => {
      const lang = pageLang(req);
      const t = HOSTED_TEXTS[lang];
      if (crossSite(req, deps.config.publicBaseUrl))
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
  );
};
