import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authorizationRequest, CLIENT_ID, logoutUrl, SCOPE } from "./oidc.ts";
import { randomToken, s256 } from "./pkce.ts";

describe("PKCE", () => {
  it("S256 is BASE64URL(SHA-256(verifier)) (RFC 7636 section 4.2), as node computes it", async () => {
    for (const verifier of [randomToken(), "dBjftJeZ4CVP-mJ0kW4e0yl3Y4OTa-4VP-Ec6dRNj7Q"]) {
      expect(await s256(verifier)).toBe(createHash("sha256").update(verifier).digest("base64url"));
    }
  });
  it("random tokens are 256 bits in base64url, never the same", () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
  });
});

describe("the console's authorization and logout requests", () => {
  beforeEach(() => vi.stubGlobal("location", { origin: "https://id.example.com" }));
  afterEach(() => vi.unstubAllGlobals());
  const meta = {
    authorization_endpoint: "https://id.example.com/oauth2/authorize",
    token_endpoint: "https://id.example.com/oauth2/token",
    end_session_endpoint: "https://id.example.com/oauth2/logout",
  };

  it("asks for a code with PKCE S256 as the public client gatehouse-console", async () => {
    const req = await authorizationRequest(meta, "es");
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe(meta.authorization_endpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: "https://id.example.com/console/callback",
      scope: SCOPE,
      state: req.state,
      code_challenge: await s256(req.verifier),
      code_challenge_method: "S256",
      ui_locales: "es",
    });
    expect(CLIENT_ID).toBe("gatehouse-console");
    expect(SCOPE).toBe("openid admin");
  });

  it("ends the hosted session with the id token hint and comes back to the callback with a state", () => {
    const url = new URL(logoutUrl(meta, { accessToken: "a", expiresAt: 0, idToken: "id.token.x" }, "st"));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT_ID,
      post_logout_redirect_uri: "https://id.example.com/console/callback",
      state: "st",
      id_token_hint: "id.token.x",
    });
  });
});

describe("who is signed in", () => {
  const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;
  it("reads the email of the ID token, else of the access token (UTF-8 kept)", async () => {
    const { signedInEmail } = await import("./identity.ts");
    expect(
      signedInEmail({ accessToken: jwt({ email: "a@x.io" }), idToken: jwt({ email: "josé@x.io" }), expiresAt: 0 }),
    ).toBe("josé@x.io");
    expect(signedInEmail({ accessToken: jwt({ email: "a@x.io" }), expiresAt: 0 })).toBe("a@x.io");
  });
  it("shows nothing for a token without an email or one that is not a JWT", async () => {
    const { signedInEmail } = await import("./identity.ts");
    expect(signedInEmail({ accessToken: jwt({ client_id: "ops" }), expiresAt: 0 })).toBeUndefined();
    expect(signedInEmail({ accessToken: "opaque", expiresAt: 0 })).toBeUndefined();
    expect(signedInEmail(undefined)).toBeUndefined();
  });
});
