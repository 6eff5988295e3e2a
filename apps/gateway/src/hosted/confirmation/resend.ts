import type { Client } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Altcha } from "@gatehouse/abuse";
import { errorFacts, type Locale } from "@gatehouse/errors";
import type { UsersService } from "@gatehouse/proto";
import { altchaBox, altchaSolved } from "../journey/captcha.ts";
import { crossSite } from "../kit/cross-site.ts";
import { renderForm, renderMessage } from "../kit/render.ts";
import { CAPTCHA_POLICY, sendPage } from "../kit/send.ts";
import { KIT_TEXTS } from "../kit/texts.ts";
import { RESEND_PATH } from "../paths.ts";
import { resendPage } from "./pages.ts";
import { CONFIRMATION_TEXTS } from "./texts.ts";

const MAX_TOKEN = 1000;

/**
 * The resend link of a 412 (RESEND_PATH?token=). For an application with
 * `captcha: "off"` its GET sends at once, as it always did; with "altcha"
 * (section 17) the GET only shows a form with the widget, and the form
 * posted back with a right, unused solution sends (anything else: the form
 * again with the error, nothing sent).
 */
export function resendPages(users: Client<typeof UsersService>, altcha: Altcha | undefined, publicBaseUrl: string) {
  /** The application of the token asks for the check; undefined: the token is not valid. */
  const challenged = async (token: string): Promise<boolean | undefined> => {
    try {
      return (await users.resendConfirmation({ resendToken: token, peek: true })).captcha === "altcha";
    } catch (err) {
      if (errorFacts(err).reason === "INVALID_CODE") return undefined;
      throw err;
    }
  };

  async function showForm(reply: FastifyReply, lang: Locale, token: string, opts: { status?: number } = {}) {
    const [title, lead] = CONFIRMATION_TEXTS[lang].ask;
    const k = KIT_TEXTS[lang];
    // Without the checker nothing passes (as on the other forms): no widget either.
    const captcha = altcha ? await altchaBox(altcha, lang, "code") : undefined;
    const html = renderForm({
      lang,
      title,
      lead,
      ...(captcha ? { captcha } : {}),
      ...(opts.status ? { alert: { text: k.captcha.failed } } : {}),
      action: RESEND_PATH,
      hidden: [{ name: "token", value: token }],
      fields: [],
      primary: { label: k.sendNewCode },
    });
    return sendPage(reply, opts.status ?? 200, html, captcha ? CAPTCHA_POLICY : undefined);
  }

  async function resend(req: FastifyRequest, reply: FastifyReply, token: string) {
    try {
      await users.resendConfirmation({ caller: { locale: req.locale, clientAddress: req.ip }, resendToken: token });
      return resendPage(reply, req.locale, "sent");
    } catch (err) {
      const f = errorFacts(err);
      if (f.reason === "INVALID_CODE") return resendPage(reply, req.locale, "invalid");
      if (f.reason === "RATE_LIMITED") {
        if (f.metadata.retry_after) reply.header("retry-after", f.metadata.retry_after);
        return resendPage(reply, req.locale, "limited");
      }
      if (f.reason === "CONFIRMATION_NOT_QUEUED") return resendPage(reply, req.locale, "failed");
      throw err;
    }
  }

  return {
    async show(req: FastifyRequest, reply: FastifyReply, token: string) {
      if (!token) return resendPage(reply, req.locale, "invalid");
      const check = await challenged(token);
      if (check === undefined) return resendPage(reply, req.locale, "invalid");
      return check ? showForm(reply, req.locale, token) : resend(req, reply, token);
    },

    async submit(req: FastifyRequest, reply: FastifyReply) {
      const lang = req.locale;
      if (crossSite(req, publicBaseUrl)) {
        const [title] = CONFIRMATION_TEXTS[lang].ask;
        return sendPage(reply, 403, renderMessage({ lang, title, text: CONFIRMATION_TEXTS[lang].forbidden }));
      }
      const form = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof form.token === "string" && form.token.length <= MAX_TOKEN ? form.token : "";
      if (!token) return resendPage(reply, lang, "invalid");
      const check = await challenged(token);
      if (check === undefined) return resendPage(reply, lang, "invalid");
      const payload = typeof form.altcha === "string" ? form.altcha : undefined;
      // Section 17: nothing is sent without a right, unused ALTCHA solution (when the application asks for one).
      if (check && !(await altchaSolved(altcha, payload, req.log, { page: "resend" })))
        return showForm(reply, lang, token, { status: 400 });
      return resend(req, reply, token);
    },
  };
}
