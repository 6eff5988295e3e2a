import type { Client } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errorFacts } from "@gatehouse/errors";
import type { UsersService } from "@gatehouse/proto";
import { crossSite } from "../kit/cross-site.ts";
import { renderMessage } from "../kit/render.ts";
import { sendPage, TERMS_POLICY } from "../kit/send.ts";
import { termsForm } from "./page.ts";
import { TERMS_TEXTS } from "./texts.ts";

const MAX_TOKEN = 1000;
const MAX_ITEMS = 100;

/** Form values as lists (a repeated name arrives as an array). */
function list(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return typeof v === "string" ? [v] : [];
}

/**
 * The terms page of a 451 login answer (`content.url`, TERMS_PATH?token=):
 * GET shows the assertions the user still has to answer, each with a
 * checkbox, mandatory ones marked; the form posted back records the answers:
 * checked accepts, unchecked declines; a mandatory one left unchecked records
 * nothing and shows the form again.
 */
export function termsPages(users: Client<typeof UsersService>, publicBaseUrl: string) {
  const send = (reply: FastifyReply, status: number, html: string) => sendPage(reply, status, html, TERMS_POLICY);
  const message = (req: FastifyRequest, title: string, text: string) =>
    renderMessage({ lang: req.locale, title, text });

  const invalid = (req: FastifyRequest, reply: FastifyReply) => {
    const t = TERMS_TEXTS[req.locale];
    return send(reply, 400, message(req, t.invalidTitle, t.invalidText));
  };

  async function showForm(req: FastifyRequest, reply: FastifyReply, token: string, status = 200, error?: string) {
    const pending = (await users.getPendingTerms({ termsToken: token })).assertions;
    const t = TERMS_TEXTS[req.locale];
    if (!pending.length) return send(reply, 200, message(req, t.doneTitle, t.doneText));
    return send(reply, status, termsForm(req.locale, token, pending, error));
  }

  /** INVALID_CODE (bad or expired token) is the invalid page; anything else is the gateway's error. */
  async function guarded(req: FastifyRequest, reply: FastifyReply, fn: () => Promise<unknown>) {
    try {
      return await fn();
    } catch (err) {
      if (errorFacts(err).reason === "INVALID_CODE") return invalid(req, reply);
      throw err;
    }
  }

  return {
    async show(req: FastifyRequest, reply: FastifyReply) {
      const token = (req.query as { token?: unknown }).token;
      if (typeof token !== "string" || !token || token.length > MAX_TOKEN) return invalid(req, reply);
      return guarded(req, reply, () => showForm(req, reply, token));
    },

    async submit(req: FastifyRequest, reply: FastifyReply) {
      const t = TERMS_TEXTS[req.locale];
      if (crossSite(req, publicBaseUrl)) return send(reply, 403, message(req, t.invalidTitle, t.forbidden));
      const form = (req.body ?? {}) as Record<string, unknown>;
      const [token] = list(form.token);
      if (!token || token.length > MAX_TOKEN) return invalid(req, reply);
      const shown = [...new Set(list(form.shown))].slice(0, MAX_ITEMS);
      const accepted = new Set(list(form.accept));
      const answers = shown.map((key) => ({
        key,
        version: list(form[`version.${key}`])[0] ?? "",
        value: accepted.has(key),
      }));
      return guarded(req, reply, async () => {
        try {
          await users.answerTerms({
            caller: { sourceId: "unknown", clientAddress: req.ip, locale: req.locale },
            termsToken: token,
            answers,
          });
        } catch (err) {
          const f = errorFacts(err);
          if (f.reason !== "CONSTRAINT_VIOLATION") throw err;
          const changed = f.violations.some((v) => v.code !== "required");
          return showForm(req, reply, token, 400, changed ? t.changed : t.mandatoryMissing);
        }
        // Something may have been published meanwhile: the form again, or done.
        return showForm(req, reply, token);
      });
    },
  };
}
