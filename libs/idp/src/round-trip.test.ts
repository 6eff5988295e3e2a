import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerConfiguration } from "./client.ts";
import type { ProviderSettings } from "./provider.ts";
import { finishUpstream, mapClaims, UpstreamRefused } from "./round-trip.ts";

// The ID token checks of the round trip, each broken on purpose: a small
// issuer on loopback (discovery, JWKS, a token endpoint) answers an ID token
// made here, and openid-client (through finishUpstream) must refuse it
// before any claim is read.

let server: Server;
let issuer: string;
let key: CryptoKey;
let other: CryptoKey;
let idToken = "";

const policy = { allowPrivate: true, timeoutMs: 2000 };
const provider = (): ProviderSettings => ({
  key: "test",
  displayName: "Test",
  type: "oidc",
  preset: "",
  issuer,
  clientId: "gatehouse",
  scopes: ["openid", "email"],
  trustEmail: false,
  authorizationEndpoint: "",
  tokenEndpoint: "",
  userinfoEndpoint: "",
  claims: {},
});
const checks = { state: "the-state", nonce: "the-nonce", codeVerifier: "v".repeat(43) };

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  key = pair.privateKey;
  ({ privateKey: other } = await generateKeyPair("RS256"));
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  server = createServer((req, res) => {
    const json = (body: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/.well-known/openid-configuration")
      return json({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    if (req.url === "/jwks") return json({ keys: [jwk] });
    if (req.url === "/token") return json({ access_token: "at", token_type: "Bearer", id_token: idToken });
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function token(claims: Record<string, unknown>, signer = key) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: issuer,
    aud: "gatehouse",
    sub: "u1",
    nonce: "the-nonce",
    iat: now,
    exp: now + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .sign(signer);
}

async function finish(claims: Record<string, unknown>, signer = key, state = "the-state") {
  idToken = await token(claims, signer);
  const config = await providerConfiguration(provider(), "secret", policy);
  const url = new URL(`https://gatehouse.test/oauth2/idp/callback?code=c&state=${state}`);
  return finishUpstream(config, provider(), url, checks);
}

describe("the ID token is verified before any claim is read", () => {
  it("a good token gives the identity (standard claims mapped)", async () => {
    const id = await finish({
      email: "Ana@Example.com",
      email_verified: true,
      given_name: "Ana",
      birthdate: "1990-01-02",
    });
    expect(id).toEqual({
      provider: "test",
      subject: "u1",
      email: "ana@example.com",
      emailVerified: true,
      profile: { name: "Ana", birthday: "1990-01-02" },
    });
  });

  it.each([
    ["another issuer", { iss: "https://evil.example.com" }],
    ["another audience", { aud: "someone-else" }],
    ["another nonce", { nonce: "replayed" }],
    ["expired beyond the clock tolerance", { exp: Math.floor(Date.now() / 1000) - 120 }],
  ])("refuses %s", async (_name, claims) => {
    await expect(finish(claims)).rejects.toBeInstanceOf(UpstreamRefused);
  });

  it("takes a token within the clock tolerance (60 s) and refuses one signed by another key or with a bad state", async () => {
    await expect(finish({ exp: Math.floor(Date.now() / 1000) - 30 })).resolves.toMatchObject({ subject: "u1" });
    await expect(finish({}, other)).rejects.toMatchObject({ reason: "invalid_token" });
    await expect(finish({}, key, "forged")).rejects.toMatchObject({ reason: "invalid_state" });
  });
});

describe("claim mapping", () => {
  it("maps an OAuth 2.0 userinfo through the claim map; a number subject becomes text; verified only when true", () => {
    const map = { subject: "id", email: "mail", emailVerified: "verified", name: "first", surname: "last" };
    expect(mapClaims("gh", { id: 42, mail: " Bo@X.io ", verified: "yes", first: "Bo", last: "" }, map)).toEqual({
      provider: "gh",
      subject: "42",
      email: "bo@x.io",
      emailVerified: false,
      profile: { name: "Bo" },
    });
    expect(mapClaims("gh", { id: "7", verified: true }, map).emailVerified).toBe(true);
    expect(() => mapClaims("gh", { mail: "a@b.c" }, map)).toThrow(UpstreamRefused);
  });
});
