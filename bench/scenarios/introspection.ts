import type { ComparedScenario } from "../lib/comparison.ts";
import { sendOnce, type LoadRequest } from "../lib/load.ts";
import { tokenRequest } from "../lib/scenario.ts";
import type { Target } from "../lib/targets.ts";
import { clientCredentialsForm } from "./client-credentials.ts";

/** Gatehouse must introspect at least this many times as fast as oidc-provider. */
export const INTROSPECTION_TARGET_RATIO = 2;

function basic(t: Target): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(t.introspectionClientId)}:${encodeURIComponent(t.clientSecret)}`).toString("base64")}`;
}

/**
 * RFC 7662 introspection of one live client_credentials access token, by
 * the client it was issued to (client_secret_basic), the same token on every
 * request. Gatehouse introspects its JWT (signature, claims, revocation
 * marks in Redis); oidc-provider introspects an opaque token of the same
 * grant (bench/peer-oidc-provider.ts: it cannot introspect its JWTs).
 */
export async function introspection(targets: Target[]): Promise<ComparedScenario> {
  const requests = new Map<string, LoadRequest>();
  for (const t of targets) {
    const token = await sendOnce(tokenRequest({ ...t, clientId: t.introspectionClientId }, clientCredentialsForm));
    if (typeof token.access_token !== "string")
      throw new Error(`${t.name}: no access_token in ${JSON.stringify(token)}`);
    requests.set(t.name, {
      url: `${t.baseUrl}${t.introspectPath}`,
      method: "POST",
      headers: {
        authorization: basic(t),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ token: token.access_token }).toString(),
    });
  }
  return {
    name: "introspection",
    target: INTROSPECTION_TARGET_RATIO,
    request: (t) => requests.get(t.name)!,
    check(t, sample) {
      if (sample.active !== true || sample.client_id !== t.introspectionClientId) {
        throw new Error(`${t.name}: introspection did not find the token active: ${JSON.stringify(sample)}`);
      }
      return typeof sample.jti === "string" && sample.token_type === "Bearer" ? "JWT" : "opaque";
    },
  };
}
