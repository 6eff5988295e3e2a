import { Code } from "@connectrpc/connect";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { ClientAuthMethod } from "@gatehouse/proto";
import {
  backends,
  creds,
  failure,
  OPERATOR,
  OTHER,
  SHOP,
  useAuthService,
  type AuthHarness,
} from "../../test/harness.ts";

describe.each(backends)("token endpoint on %s", (_name, open) => {
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ h } = ctx));

  const issue = (parameters: Record<string, string> = {}, client = creds(SHOP), grantType = "client_credentials") =>
    h.auth.issueToken({ client, grantType, parameters });

  it("issues an RFC 9068 access token for client_credentials", async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await issue();
    expect(res.tokenType).toBe("Bearer");
    expect(res.expiresIn).toBe(3600n);
    expect(res.scope).toBe("users:access apps:read");
    expect(res.refreshToken).toBe("");
    expect(res.idToken).toBe("");

    const header = decodeProtectedHeader(res.accessToken);
    expect(header.typ).toBe("at+jwt");
    expect(header.alg).toBe("EdDSA");
    const jwks = JSON.parse((await h.auth.getJwks({})).jwksJson) as JSONWebKeySet;
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);

    const claims = decodeJwt(res.accessToken);
    expect(claims).toMatchObject({
      iss: "http://auth.test",
      aud: "http://api.test",
      sub: SHOP.clientId,
      client_id: SHOP.clientId,
      scope: "users:access apps:read",
    });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp).toBe(claims.iat! + 3600);
    expect(claims.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const { payload, protectedHeader } = await jwtVerify(res.accessToken, createLocalJWKSet(jwks), {
      issuer: "http://auth.test",
      audience: "http://api.test",
      typ: "at+jwt",
    });
    expect(payload.jti).toBe(claims.jti);
    expect(protectedHeader.kid).toBe(header.kid);
  });

  it("gives every token its own jti", async () => {
    const a = decodeJwt((await issue()).accessToken).jti;
    const b = decodeJwt((await issue()).accessToken).jti;
    expect(a).not.toBe(b);
  });

  it("accepts client_secret_post as well as client_secret_basic", async () => {
    const res = await issue({}, creds(OTHER, ClientAuthMethod.CLIENT_SECRET_POST));
    expect(decodeJwt(res.accessToken).client_id).toBe(OTHER.clientId);
    expect(res.scope).toBe("users:access");
  });

  it("grants a requested subset of the allowed scopes, once each, in the order asked", async () => {
    const res = await issue({ scope: "apps:read users:access apps:read" });
    expect(res.scope).toBe("apps:read users:access");
    expect(decodeJwt(res.accessToken).scope).toBe("apps:read users:access");
    expect((await issue({ scope: "apps:read" })).scope).toBe("apps:read");
  });

  it("treats an empty scope parameter as absent (RFC 6749 section 3.1)", async () => {
    expect((await issue({ scope: "" })).scope).toBe("users:access apps:read");
  });

  it("ignores parameters it does not know (RFC 6749 section 3.2)", async () => {
    const res = await issue({ scope: "apps:read", resource: "https://x", client_id: SHOP.clientId, foo: "bar" });
    expect(res.scope).toBe("apps:read");
  });

  it("refuses a scope the client may not have: invalid_scope", async () => {
    const f = await failure(issue({ scope: "users:access admin" }));
    expect(f.reason).toBe("INVALID_SCOPE");
    expect(f.code).toBe(Code.InvalidArgument);
    expect(f.message).toContain("admin");
    expect((await failure(issue({ scope: "unknown" }))).reason).toBe("INVALID_SCOPE");
  });

  it.each([
    ["apps:read  users:access"],
    [" apps:read"],
    ["apps:read "],
    ['apps:"read"'],
    ["apps\\read"],
    ["apps:read\tusers:access"],
    ["é"],
  ])("refuses the malformed scope %j: invalid_scope", async (scope) => {
    expect((await failure(issue({ scope }))).reason).toBe("INVALID_SCOPE");
  });

  it("operators get their own scopes", async () => {
    const res = await issue({ scope: "apps:write" }, creds(OPERATOR));
    expect(res.scope).toBe("apps:write");
    expect(decodeJwt(res.accessToken).sub).toBe(OPERATOR.clientId);
  });

  describe("errors", () => {
    it("no client authentication: invalid_client", async () => {
      const f = await failure(
        issue({}, { method: ClientAuthMethod.UNSPECIFIED, clientId: SHOP.clientId, clientSecret: SHOP.secret }),
      );
      expect(f.reason).toBe("INVALID_CLIENT");
      expect(f.code).toBe(Code.Unauthenticated);
      expect((await failure(h.auth.issueToken({ grantType: "client_credentials" }))).reason).toBe("INVALID_CLIENT");
    });

    it("wrong secret, unknown client, empty secret: invalid_client, with the same description", async () => {
      const wrong = await failure(issue({}, creds({ clientId: SHOP.clientId, secret: "nope" })));
      const unknown = await failure(issue({}, creds({ clientId: "999", secret: SHOP.secret })));
      const empty = await failure(issue({}, creds({ clientId: SHOP.clientId, secret: "" })));
      for (const f of [wrong, unknown, empty]) {
        expect(f.reason).toBe("INVALID_CLIENT");
        expect(f.code).toBe(Code.Unauthenticated);
      }
      expect(wrong.message).toBe(unknown.message);
    });

    it("checks the client before the grant type", async () => {
      expect((await failure(issue({}, creds({ clientId: SHOP.clientId, secret: "nope" }), "nonsense"))).reason).toBe(
        "INVALID_CLIENT",
      );
    });

    it("missing grant_type: invalid_request", async () => {
      const f = await failure(issue({}, creds(SHOP), ""));
      expect(f.reason).toBe("INVALID_REQUEST");
      expect(f.code).toBe(Code.InvalidArgument);
      expect(f.message).toContain("grant_type");
    });

    it.each([["password"], ["implicit"], ["urn:ietf:params:oauth:grant-type:jwt-bearer"], ["token"]])(
      "grant_type %s: unsupported_grant_type",
      async (grantType) => {
        const f = await failure(issue({ code: "x", refresh_token: "y" }, creds(SHOP), grantType));
        expect(f.reason).toBe("UNSUPPORTED_GRANT_TYPE");
        expect(f.code).toBe(Code.InvalidArgument);
        expect(f.message).toContain("client_credentials");
      },
    );
  });
});
