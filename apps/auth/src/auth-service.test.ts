import { Code } from "@connectrpc/connect";
import type { JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { AuthService, DeviceAuthorizationService, UserSessionsService } from "@gatehouse/proto";
import { backends, creds, failure, SHOP, useAuthService, type AuthHarness } from "../test/harness.ts";

describe.each(backends)("AuthService on %s", (_name, open) => {
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ h } = ctx));

  it("lets only internal callers use every RPC", () => {
    expect(h.mod.name).toBe("auth");
    const methods = [...AuthService.methods, ...UserSessionsService.methods, ...DeviceAuthorizationService.methods]
      .map((m) => m.localName)
      .sort();
    expect(Object.keys(h.mod.policy).sort()).toEqual(methods);
    for (const m of methods) expect(h.mod.policy[m]).toEqual(["internal"]);
  });

  it("refuses a call without a bearer token: Unauthenticated", async () => {
    const calls = [
      h.anonymous.issueToken({ client: creds(SHOP), grantType: "client_credentials" }),
      h.anonymous.introspectToken({ client: creds(SHOP), token: "x" }),
      h.anonymous.revokeToken({ client: creds(SHOP), token: "x" }),
      h.anonymous.getJwks({}),
      h.anonymous.getServerMetadata({}),
      h.anonymous.issueUserSession({ userId: "u1", clientId: SHOP.clientId, scope: "profile" }),
      h.anonymous.revokeUserSession({ sessionId: "s1" }),
    ];
    for (const call of calls) {
      const f = await failure(call);
      expect(f.code).toBe(Code.Unauthenticated);
      expect(f.reason).toBe("UNAUTHENTICATED");
    }
  });

  it("refuses a client's access token as the bearer: services only", async () => {
    const { accessToken } = await h.auth.issueToken({ client: creds(SHOP), grantType: "client_credentials" });
    const f = await failure(h.auth.getJwks({}, { headers: { authorization: `Bearer ${accessToken}` } }));
    expect(f.code).toBe(Code.Unauthenticated);
  });

  it("serves the JWK Set as JSON", async () => {
    const jwks = JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;
    // The key in use and the next one, published before it signs.
    expect(jwks.keys).toHaveLength(2);
    for (const key of jwks.keys) expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", use: "sig", alg: "EdDSA" });
    expect(await h.mod.jwks()).toEqual(jwks);
  });

  it("describes the server for the discovery documents", async () => {
    const m = await h.auth.getServerMetadata({});
    expect(m.issuer).toBe("http://auth.test");
    expect(m.grantTypesSupported).toEqual([
      "authorization_code",
      "client_credentials",
      "refresh_token",
      "urn:ietf:params:oauth:grant-type:device_code",
    ]);
    expect(m.signingAlgValuesSupported).toEqual(["EdDSA"]);
    // What /authorize accepts; the client_credentials scopes are per client, not advertised.
    expect(m.scopesSupported).toEqual(["openid", "profile", "email", "offline_access"]);
  });

  it("is ready while its stores answer", async () => {
    expect(await h.mod.ready()).toBe(true);
  });
});
