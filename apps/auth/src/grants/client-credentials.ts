import { signAccessToken } from "../tokens/access-token.ts";
import { grantedScope } from "./scope.ts";
import type { Grant } from "./types.ts";

/** RFC 6749 section 4.4: the client's own APP_TOKEN. No refresh token (section 4.4.3). */
export const clientCredentials: Grant = {
  grantType: "client_credentials",
  parameters: { required: [], optional: ["scope"] },
  async handler({ client, params, keys, settings }) {
    const scope = grantedScope(params.scope, client.allowedScopes);
    const { token } = await signAccessToken(keys, settings, { sub: client.clientId, clientId: client.clientId, scope });
    return { accessToken: token, tokenType: "Bearer", expiresIn: settings.accessTokenTtlSeconds, scope };
  },
};
