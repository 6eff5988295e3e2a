import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errorFacts, isTransient } from "@gatehouse/errors";
import type { Wired } from "../../deps.ts";
import { hostedLogin } from "../../hosted/index.ts";
import { AUTHORIZE_PATH, DEVICE_CALLBACK_PATH, IDP_CALLBACK_PATH } from "../../hosted/paths.ts";
import type { OAuthClients } from "../../oauth/applications.ts";
import { authorizationParams, checkAuthorizationRequest } from "../../oauth/authorization-request.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { redirectToClient, redirectUriAllowed } from "../../oauth/redirect-uri.ts";

/**
 * GET (and POST, OpenID Connect Core 3.1.2.1) /oauth2/authorize: the
 * authorization code flow with PKCE and the hosted login of an entry point
 * (hosted/authorize). A POST carrying `form_token` is a hosted form coming back.
 */
export const authorizeRoutes: FastifyPluginAsync<
  Wired<"users" | "hostedLoginKey"> & { clients: OAuthClients }
> = async (app, deps) => {
  const { clients } = deps;
  const hosted = hostedLogin(deps);
  // Its cache of entry points, catalogs and assertions is dropped by the registry's notices on every replica.
  if (deps.registryNotices) {
    const unsubscribe = await hosted.listen(deps.registryNotices);
    app.addHook("onClose", unsubscribe);
  }
  // The /device page signs people in through this same login; its code comes back to the gateway itself.
  const deviceCallback = deps.devices ? `${deps.config.publicAuthUrl}${DEVICE_CALLBACK_PATH}` : undefined;
  /** Where a started sign-in may still end: a redirect URI of the application, or the /device page's callback. */
  const redirectsTo = (uri: string, registered: readonly string[]) =>
    uri === deviceCallback || redirectUriAllowed(uri, registered);

  const unavailable = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const f = errorFacts(err);
    if (!isTransient(f.reason)) req.log.error({ err }, "authorization endpoint failure");
    return hosted.unavailablePage(req, reply, isTransient(f.reason) ? 503 : 500);
  };

  /** An authorization request: a page error, an error redirect, or the login form. */
  async function authorizationRequest(req: FastifyRequest, reply: FastifyReply, raw: unknown) {
    const outcome = await checkAuthorizationRequest(clients, raw, deviceCallback);
    if (outcome.kind === "page") return hosted.problemPage(req, reply, outcome.problem);
    if (outcome.kind === "redirect") {
      const params = { error: outcome.error, error_description: outcome.description, state: outcome.state };
      const status = req.method === "GET" ? 302 : 303;
      return redirectToClient(reply, status, outcome.redirectUri, params, deps.config.publicAuthUrl);
    }
    // The entry point's login page, or its registration page with prompt=create.
    const create = authorizationParams(raw).params.prompt?.split(" ").includes("create") ?? false;
    return hosted.entryPage(req, reply, outcome.app, outcome.pending, create);
  }

  /** A hosted form posted back: its token must be genuine and bound to this browser (CSRF). */
  async function hostedForm(req: FastifyRequest, reply: FastifyReply, form: Record<string, string>) {
    const pending = hosted.pendingOf(req, form.form_token ?? "");
    if (!pending) return hosted.expiredPage(req, reply);
    const found = (await clients.client(pending.clientId))?.app;
    // The application may have changed since the form was shown: check again, and never redirect if it did.
    if (
      !found ||
      !redirectsTo(pending.redirectUri, found.redirectUris) ||
      !found.entrypoints.some((e) => e.id === pending.entrypointId)
    ) {
      return hosted.expiredPage(req, reply, pending);
    }
    return hosted.submit(req, reply, found, pending, form);
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
        if (repeated.length) return hosted.expiredPage(req, reply);
        return await hostedForm(req, reply, params);
      }
      return await authorizationRequest(req, reply, req.body);
    } catch (err) {
      return unavailable(req, reply, err);
    }
  });
  otherMethods(app, AUTHORIZE_PATH, ["GET", "POST"]);

  // Identity providers return here (contract section 11): the sign-in this browser started, finished on its pages.
  app.get(
    IDP_CALLBACK_PATH,
    { schema: { summary: "Upstream identity providers' redirect URI (social sign-in)", tags: ["oauth"] } },
    async (req, reply) => {
      try {
        const started = hosted.upstreamOf(req, reply);
        if (!started) return hosted.upstreamExpiredPage(req, reply);
        const { pending, transaction } = started;
        const found = (await clients.client(pending.clientId))?.app;
        if (
          !found ||
          !redirectsTo(pending.redirectUri, found.redirectUris) ||
          !found.entrypoints.some((e) => e.id === pending.entrypointId)
        )
          return hosted.expiredPage(req, reply, pending);
        return await hosted.callback(req, reply, found, pending, transaction);
      } catch (err) {
        return unavailable(req, reply, err);
      }
    },
  );
  otherMethods(app, IDP_CALLBACK_PATH, ["GET"]);
};
