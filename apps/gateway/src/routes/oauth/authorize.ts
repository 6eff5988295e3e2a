import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errorFacts, isTransient } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import type { OAuthClients } from "../../oauth/applications.ts";
import { authorizationParams, checkAuthorizationRequest } from "../../oauth/authorization-request.ts";
import { formTokens } from "../../hosted/authorize/form-token.ts";
import {
  pageLocale,
  redirectToClient,
  sendMessage,
  showEntryPage,
  submitLogin,
  type HostedLoginDeps,
} from "../../oauth/hosted-login.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { redirectUriAllowed } from "../../oauth/redirect-uri.ts";
import { TEXTS } from "../../hosted/authorize/texts.ts";

export const AUTHORIZE_PATH = "/oauth2/authorize";

/**
 * GET (and POST, OpenID Connect Core 3.1.2.1) /oauth2/authorize: the
 * authorization code flow with PKCE and the hosted login of an entry point.
 * A POST carrying `form_token` is the login form coming back.
 */
export const authorizeRoutes: FastifyPluginAsync<
  GatewayDeps & { hostedLoginKey: (data: string) => string; clients: OAuthClients }
> = async (app, deps) => {
  const { clients } = deps;
  const forms = formTokens(deps.hostedLoginKey, { secureCookie: deps.config.publicAuthUrl.startsWith("https:") });
  const h: HostedLoginDeps = { deps, forms };

  const unavailable = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const f = errorFacts(err);
    if (!isTransient(f.reason)) req.log.error({ err }, "authorization endpoint failure");
    const lang = pageLocale(req);
    return sendMessage(reply, isTransient(f.reason) ? 503 : 500, lang, TEXTS[lang].unavailable);
  };

  /** An authorization request: a page error, an error redirect, or the login form. */
  async function authorizationRequest(req: FastifyRequest, reply: FastifyReply, raw: unknown) {
    const outcome = await checkAuthorizationRequest(clients, raw);
    if (outcome.kind === "page") {
      const lang = pageLocale(req);
      return sendMessage(reply, 400, lang, TEXTS[lang].problems[outcome.problem]);
    }
    if (outcome.kind === "redirect") {
      return redirectToClient(h, reply, req.method === "GET" ? 302 : 303, outcome.redirectUri, {
        error: outcome.error,
        error_description: outcome.description,
        state: outcome.state,
      });
    }
    // The entry point's login page, or its registration page with prompt=create.
    return showEntryPage(h, req, reply, outcome.app, outcome.pending, raw);
  }

  /** The login form posted back: its token must be genuine and bound to this browser (CSRF). */
  async function loginForm(req: FastifyRequest, reply: FastifyReply, form: Record<string, string>) {
    const pending = forms.verify(req, form.form_token ?? "");
    const lang = pageLocale(req, pending);
    if (!pending) return sendMessage(reply, 400, lang, TEXTS[lang].formExpired);
    const found = (await clients.client(pending.clientId))?.app;
    // The application may have changed since the form was shown: check again, and never redirect if it did.
    if (
      !found ||
      !redirectUriAllowed(pending.redirectUri, found.redirectUris) ||
      !found.entrypoints.some((e) => e.id === pending.entrypointId)
    ) {
      return sendMessage(reply, 400, lang, TEXTS[lang].formExpired);
    }
    return submitLogin(h, req, reply, found, pending, form);
  }

  const schema = { summary: "Authorization endpoint (code flow with PKCE S256) and hosted login", tags: ["oauth"] };

  app.get(AUTHORIZE_PATH, { schema }, async (req, reply) => {
    try {
      return await authorizationRequest(req, reply, req.query);
    } catch (err) {
      return unavailable(req, reply, err);
    }
  });

  app.post(AUTHORIZE_PATH, { schema }, async (req, reply) => {
    try {
      const { params, repeated } = authorizationParams(req.body);
      if (params.form_token !== undefined || repeated.includes("form_token")) {
        if (repeated.length) return sendMessage(reply, 400, pageLocale(req), TEXTS[pageLocale(req)].formExpired);
        return await loginForm(req, reply, params);
      }
      return await authorizationRequest(req, reply, req.body);
    } catch (err) {
      return unavailable(req, reply, err);
    }
  });
  otherMethods(app, AUTHORIZE_PATH, ["GET", "POST"]);
};
