import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errorFacts } from "@gatehouse/errors";
import type { GatewayDeps } from "../../deps.ts";
import type { OAuthClients } from "../../oauth/applications.ts";
import { authorizationParams } from "../../oauth/authorization-request.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { withResponseParams } from "../../oauth/redirect-uri.ts";
import { logoutInvalidPage, signedOutPage } from "../../hosted/index.ts";
import { LOGOUT_PATH } from "../../hosted/paths.ts";

/**
 * GET and POST /oauth2/logout (OpenID Connect RP-Initiated Logout 1.0). The
 * id_token_hint names the session; the auth service ends it and its refresh
 * family. post_logout_redirect_uri must be exactly one of the relying party's
 * registered redirect URIs (it needs the hint or client_id to know whose);
 * otherwise nothing is redirected and a page says what happened.
 */
export const logoutRoutes: FastifyPluginAsync<GatewayDeps & { clients: OAuthClients }> = async (app, deps) => {
  const { clients } = deps;

  async function logout(req: FastifyRequest, reply: FastifyReply, raw: unknown) {
    const { params: p, repeated } = authorizationParams(raw);
    const lang =
      p.ui_locales
        ?.split(" ")
        .map((l) => l.split("-")[0])
        .find((l) => l === "en" || l === "es") ?? req.locale;
    const invalid = () => logoutInvalidPage(reply, lang);
    if (repeated.length) return invalid();
    let clientId = p.client_id;
    if (p.id_token_hint) {
      try {
        clientId = (await deps.auth.endSession({ idTokenHint: p.id_token_hint, clientId: p.client_id ?? "" })).clientId;
      } catch (err) {
        if (errorFacts(err).reason === "INVALID_REQUEST") return invalid();
        throw err;
      }
    }
    if (p.post_logout_redirect_uri) {
      // The relying party's application (a public client's is its entry point's).
      const client = clientId ? (await clients.client(clientId))?.app : undefined;
      if (!client || !client.redirectUris.includes(p.post_logout_redirect_uri)) return invalid();
      const location = withResponseParams(p.post_logout_redirect_uri, { state: p.state });
      return reply
        .code(302)
        .headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" })
        .send();
    }
    return signedOutPage(reply, lang);
  }

  const schema = { summary: "RP-initiated logout (OpenID Connect)", tags: ["oauth"] };
  app.get(LOGOUT_PATH, { schema }, (req, reply) => logout(req, reply, req.query));
  app.post(LOGOUT_PATH, { schema }, (req, reply) => logout(req, reply, req.body));
  otherMethods(app, LOGOUT_PATH, ["GET", "POST"]);
};
