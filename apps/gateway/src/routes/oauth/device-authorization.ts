import type { FastifyPluginAsync } from "fastify";
import Type from "typebox";
import type { Wired } from "../../deps.ts";
import { DEVICE_PATH } from "../../hosted/paths.ts";
import { sendOAuthError, sendOAuthRpcError } from "../../http/oauth-error.ts";
import type { OAuthClients } from "../../oauth/applications.ts";
import { otherMethods } from "../../oauth/methods.ts";
import { oauthRequest } from "../../oauth/request.ts";
import { OAuthError } from "../../schemas/common.ts";

export const DEVICE_AUTHORIZATION_PATH = "/oauth2/device_authorization";

const DeviceAuthorizationResponse = Type.Object({
  device_code: Type.String(),
  user_code: Type.String(),
  verification_uri: Type.String(),
  verification_uri_complete: Type.String(),
  expires_in: Type.Integer(),
  interval: Type.Integer(),
});

/**
 * POST /oauth2/device_authorization (RFC 8628 section 3.1): a TV or console
 * asks for a device code and a user code. `entrypoint` (an application's
 * choice of the entry point the person signs in through) is checked here,
 * where the applications are known; the codes are the auth service's.
 */
export const deviceAuthorizationRoute: FastifyPluginAsync<Wired<"devices"> & { clients: OAuthClients }> = async (
  app,
  deps,
) => {
  const verificationUri = `${deps.config.publicAuthUrl}${DEVICE_PATH}`;
  app.post(
    DEVICE_AUTHORIZATION_PATH,
    {
      config: { oauth: true },
      schema: {
        summary: "Device authorization endpoint (RFC 8628)",
        description:
          "application/x-www-form-urlencoded; an entry point id as public client (none), or an application's client_secret_basic/post. " +
          "Parameters: scope (default profile), entrypoint (an application's entry point id or key), source_id (the device kind, e.g. itv).",
        tags: ["oauth"],
        response: { 200: DeviceAuthorizationResponse, 400: OAuthError, 401: OAuthError },
      },
    },
    async (req, reply) => {
      const r = oauthRequest(req, reply);
      if (!r) return reply;
      try {
        let entrypointId = "";
        if (r.params.entrypoint !== undefined && r.params.entrypoint !== "") {
          const known = await deps.clients.client(r.client.clientId);
          const named = known?.app.entrypoints.find(
            (e) => e.id === r.params.entrypoint || e.key === r.params.entrypoint,
          );
          // An unknown client is the auth service's invalid_client below, never a hint about entry points.
          if (known && (!named || (known.entrypointId && named.id !== known.entrypointId)))
            return sendOAuthError(reply, "INVALID_REQUEST", "entrypoint is not an entry point of this client");
          entrypointId = named?.id ?? "";
        }
        const d = await deps.devices.authorizeDevice({
          client: r.client,
          scope: r.params.scope ?? "",
          entrypointId,
          sourceId: r.params.source_id ?? "",
        });
        return reply.headers({ "cache-control": "no-store", pragma: "no-cache" }).send({
          device_code: d.deviceCode,
          user_code: d.userCode,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(d.userCode)}`,
          expires_in: Number(d.expiresIn),
          interval: Number(d.interval),
        });
      } catch (err) {
        return sendOAuthRpcError(reply, err, r.usedBasic);
      }
    },
  );
  otherMethods(app, DEVICE_AUTHORIZATION_PATH, ["POST"]);
};
