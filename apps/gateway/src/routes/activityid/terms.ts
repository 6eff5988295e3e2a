import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import { formBody } from "../../plugins/edge/index.ts";
import { TERMS_PATH } from "../../http/terms.ts";
import { sendTermsPage, TERMS_TEXTS, termsForm, termsMessage } from "../../hosted/terms/page.ts";

const MAX_TOKEN = 1000;
const MAX_ITEMS = 100;

/** Form values as lists (a repeated name arrives as an array). */
function list(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return typeof v === "string" ? [v] : [];
}

/** A cross-site POST (another origin's form) is refused: the token is the secret, the origin check the belt. */
function crossSite(req: FastifyRequest, publicBaseUrl: string): boolean {
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = req.headers.origin;
  return origin !== undefined && origin !== "null" && origin !== new URL(publicBaseUrl).origin;
}

/**
 * GET {base_url}/activityid/v1/user/terms?token=: the hosted page of a 451
 * login answer (`content.url`): the assertions the user still has to answer,
 * each with a checkbox, mandatory ones marked. POST the same path (the form,
 * with the token) records the answers: checked accepts, unchecked declines;
 * a mandatory one left unchecked records nothing and shows the form again.
 */
export const termsRoutes: FastifyPluginAsync<GatewayDeps> = async (app, deps) => {
  if (!deps.users) return;
  const users = deps.users;
  await app.register(formBody, { bodyLimit: 64 * 1024 });

  const invalid = (req: FastifyRequest, reply: FastifyReply) => {
    const t = TERMS_TEXTS[req.locale];
    return sendTermsPage(reply, 400, termsMessage(req.locale, t.invalidTitle, t.invalidText));
  };

  async function showForm(req: FastifyRequest, reply: FastifyReply, token: string, status = 200, error?: string) {
    const pending = (await users.getPendingTerms({ termsToken: token })).assertions;
    const t = TERMS_TEXTS[req.locale];
    if (!pending.length) return sendTermsPage(reply, 200, termsMessage(req.locale, t.doneTitle, t.doneText));
    return sendTermsPage(reply, status, termsForm(req.locale, token, pending, error));
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

  app.get(
    TERMS_PATH,
    {
      exposeHeadRoute: false,
      schema: { summary: "Hosted terms page (the 451 login answer's content.url)", tags: ["users"] },
    },
    async (req, reply) => {
      const token = (req.query as { token?: unknown }).token;
      if (typeof token !== "string" || !token || token.length > MAX_TOKEN) return invalid(req, reply);
      return guarded(req, reply, () => showForm(req, reply, token));
    },
  );

  app.post(
    TERMS_PATH,
    { schema: { summary: "Answers of the hosted terms page", tags: ["users"] } },
    async (req, reply) => {
      const t = TERMS_TEXTS[req.locale];
      if (crossSite(req, deps.config.publicBaseUrl))
        return sendTermsPage(reply, 403, termsMessage(req.locale, t.invalidTitle, t.forbidden));
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
  );
};
