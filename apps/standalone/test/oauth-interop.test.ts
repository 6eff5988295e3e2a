import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@gatehouse/config";
import { dropTestDatabases, freshDatabase, redisTestUrl, uniquePrefix } from "@gatehouse/testing";
import { buildStack, type Stack } from "../src/stack.ts";
import { freePort } from "./processes.ts";

// The OAuth endpoints of `npm start` (PostgreSQL + Redis) driven by an
// independent, strict client library (oauth4webapi) over real HTTP.

const CLIENT_ID = "interop-operator";
const CLIENT_SECRET = "interop-operator-secret-0123456789";
const SCOPE = "apps:read";
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const client: oauth.Client = { client_id: CLIENT_ID };

let stack: Stack | undefined;
let dataDir: string;
let publicUrl: string;
let as: oauth.AuthorizationServer;

async function issue(auth: oauth.ClientAuth, scope = SCOPE): Promise<oauth.TokenEndpointResponse> {
  const res = await oauth.clientCredentialsGrantRequest(as, client, auth, { scope }, insecure);
  return oauth.processClientCredentialsResponse(as, client, res);
}

async function introspect(token: string): Promise<oauth.IntrospectionResponse> {
  const res = await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(CLIENT_SECRET), token, insecure);
  return oauth.processIntrospectionResponse(as, client, res);
}

/**
 * The OAuth error code oauth4webapi surfaced: a ResponseBodyError carries it
 * directly; a 401 with a WWW-Authenticate challenge (RFC 6749 section 5.2)
 * is raised as WWWAuthenticateChallengeError before the body is read.
 */
async function oauthErrorCode(err: unknown): Promise<{ status: number; error: string }> {
  if (err instanceof oauth.ResponseBodyError) return { status: err.status, error: err.error };
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    const body = (await err.response.json()) as { error?: string };
    return { status: err.status, error: body.error ?? "" };
  }
  throw err;
}

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(join(tmpdir(), "gh-interop-"));
  const config = loadConfig({
    DATABASE_URL: (await freshDatabase()).url,
    REDIS_URL: redisTestUrl(),
    REDIS_PREFIX: uniquePrefix(),
    PUBLIC_URL: publicUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BOOTSTRAP_OPERATOR_CLIENT_ID: CLIENT_ID,
    BOOTSTRAP_OPERATOR_CLIENT_SECRET: CLIENT_SECRET,
  });
  stack = await buildStack(config);
  await stack.app.listen({ port, host: "127.0.0.1" });
  const issuer = new URL(publicUrl);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
});

afterAll(async () => {
  await stack?.close();
  await dropTestDatabases();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("OAuth 2.0 interoperability (oauth4webapi)", () => {
  it("publishes RFC 8414 and OpenID discovery documents naming the PUBLIC_URL as issuer", async () => {
    expect(as.issuer).toBe(publicUrl);
    expect(as.token_endpoint).toBe(`${publicUrl}/oauth2/token`);
    expect(as.jwks_uri).toBe(`${publicUrl}/oauth2/jwks`);
    expect(as.introspection_endpoint).toBe(`${publicUrl}/oauth2/introspect`);
    expect(as.revocation_endpoint).toBe(`${publicUrl}/oauth2/revoke`);
    expect(as.grant_types_supported).toContain("client_credentials");
    expect(as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["client_secret_basic", "client_secret_post"]),
    );

    const issuer = new URL(publicUrl);
    const oidc = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oidc" }),
    );
    expect(oidc.issuer).toBe(publicUrl);
    expect(oidc.token_endpoint).toBe(as.token_endpoint);
  });

  it.each([
    ["client_secret_basic", () => oauth.ClientSecretBasic(CLIENT_SECRET)],
    ["client_secret_post", () => oauth.ClientSecretPost(CLIENT_SECRET)],
  ])("issues an RFC 9068 JWT access token to client_credentials with %s", async (_method, auth) => {
    const tokens = await issue(auth());
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.scope).toBe(SCOPE);
    expect(tokens.refresh_token).toBeUndefined();

    const request = new Request(`${publicUrl}/resource`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const claims = await oauth.validateJwtAccessToken(as, request, publicUrl, insecure);
    expect(claims.iss).toBe(publicUrl);
    expect(claims.client_id).toBe(CLIENT_ID);
    expect(claims.scope).toBe(SCOPE);
  });

  it("introspects an active token, revokes it, then introspects it as inactive", async () => {
    const { access_token: token } = await issue(oauth.ClientSecretBasic(CLIENT_SECRET));

    const active = await introspect(token);
    expect(active.active).toBe(true);
    expect(active.client_id).toBe(CLIENT_ID);
    expect(active.scope).toBe(SCOPE);
    expect(active.iss).toBe(publicUrl);

    const res = await oauth.revocationRequest(as, client, oauth.ClientSecretPost(CLIENT_SECRET), token, insecure);
    await expect(oauth.processRevocationResponse(res)).resolves.toBeUndefined();

    const after = await introspect(token);
    expect(after.active).toBe(false);
    expect(after.client_id).toBeUndefined();
  });

  it.each([
    ["client_secret_basic", () => oauth.ClientSecretBasic(`${CLIENT_SECRET}-wrong`)],
    ["client_secret_post", () => oauth.ClientSecretPost(`${CLIENT_SECRET}-wrong`)],
  ])("refuses a wrong secret with invalid_client (%s)", async (_method, auth) => {
    const err = await issue(auth()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    expect(await oauthErrorCode(err)).toEqual({ status: 401, error: "invalid_client" });
  });
});
