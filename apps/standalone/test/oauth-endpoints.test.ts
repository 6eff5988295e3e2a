import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./stack-helpers.ts";

// The OAuth endpoints' HTTP surface (contract section 9): 405 with Allow in
// the OAuth error form, OPTIONS, and Basic client credentials raw or
// form-encoded (clients such as curl -u, requests, Authlib and
// simple-oauth2 send secrets raw).
const OPERATOR_ID = "raw-secret-operator";
// A space, a `+` and `%41`: read raw it is this; form-decoded it would be "pa ss wArd-…".
const SECRET = "pa ss+w%41rd-0123456789";

describe("OAuth endpoints", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startTestStack({
      env: { BOOTSTRAP_OPERATOR_CLIENT_ID: OPERATOR_ID, BOOTSTRAP_OPERATOR_CLIENT_SECRET: SECRET },
    });
  });
  afterAll(() => s.close());

  const token = (authorization: string, body = "grant_type=client_credentials&scope=apps%3Aread") =>
    s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
      payload: body,
    });
  const basic = (raw: string | Buffer) => `Basic ${Buffer.from(raw).toString("base64")}`;

  it.each([
    ["/oauth2/token", ["POST"], ["GET", "PUT", "DELETE", "PATCH", "HEAD"]],
    ["/oauth2/revoke", ["POST"], ["GET", "PUT"]],
    ["/oauth2/introspect", ["POST"], ["GET", "DELETE"]],
    ["/oauth2/jwks", ["GET", "HEAD"], ["POST", "PUT"]],
    ["/oauth2/userinfo", ["GET", "POST"], ["PUT", "DELETE"]],
    ["/oauth2/authorize", ["GET", "POST"], ["PUT", "PATCH"]],
    ["/oauth2/logout", ["GET", "POST"], ["DELETE"]],
    ["/.well-known/openid-configuration", ["GET", "HEAD"], ["POST"]],
    ["/.well-known/oauth-authorization-server", ["GET", "HEAD"], ["POST"]],
  ] as const)("%s: other methods are 405 with Allow, in the OAuth error form", async (url, allowed, others) => {
    for (const method of others) {
      const res = await s.app.inject({ method, url });
      expect(res.statusCode).toBe(405);
      const allow = String(res.headers.allow).split(", ");
      expect(allow).toEqual(expect.arrayContaining([...allowed, "OPTIONS"]));
      expect(allow).not.toContain(method);
      if (method !== "HEAD")
        expect(res.json()).toEqual({ error: "invalid_request", error_description: expect.stringContaining(method) });
    }
    const options = await s.app.inject({ method: "OPTIONS", url });
    expect(options.statusCode).toBe(204);
    expect(String(options.headers.allow)).toContain(allowed[0]);
  });

  it("answers methods Fastify does not route (TRACE, PROPFIND) on an OAuth endpoint 405 with Allow, and unknown /oauth2/ paths 404 in the OAuth form", async () => {
    for (const [method, url] of [
      ["TRACE", "/oauth2/token"],
      ["PROPFIND", "/oauth2/revoke"],
      ["TRACE", "/.well-known/openid-configuration"],
    ] as const) {
      const res = await s.app.inject({ method: method as "GET", url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(String(res.headers.allow)).toMatch(/OPTIONS/);
      expect(res.json()).toEqual({ error: "invalid_request", error_description: expect.stringContaining(method) });
    }
    const unknown = await s.app.inject({ method: "POST", url: "/oauth2/nope?x=1" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: "invalid_request",
      error_description: expect.stringContaining("/oauth2/nope"),
    });
  });

  it("answers a form body over the body limit 413 in the OAuth form (token, introspection, revocation)", async () => {
    const payload = `grant_type=client_credentials&x=${"a".repeat(70 * 1024)}`;
    for (const url of ["/oauth2/token", "/oauth2/introspect", "/oauth2/revoke"]) {
      const res = await s.app.inject({
        method: "POST",
        url,
        headers: { authorization: s.basic(OPERATOR_ID, SECRET), "content-type": "application/x-www-form-urlencoded" },
        payload,
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    }
  });

  it("accepts a Basic secret sent raw (with a space, + and %) or form-encoded, and nothing else", async () => {
    const raw = await token(basic(`${OPERATOR_ID}:${SECRET}`));
    expect(raw.statusCode).toBe(200);
    expect(raw.json().scope).toBe("apps:read");
    const encoded = await token(s.basic(OPERATOR_ID, SECRET));
    expect(encoded.statusCode).toBe(200);
    // The form-decoded reading of the raw header is another secret: wrong.
    const decodedReading = await token(basic(`${OPERATOR_ID}:${decodeURIComponent(SECRET.replace(/\+/g, " "))}`));
    expect(decodedReading.statusCode).toBe(401);
    expect(decodedReading.json().error).toBe("invalid_client");
    // The same holds at introspection and revocation.
    const t = raw.json().access_token as string;
    const introspected = await s.app.inject({
      method: "POST",
      url: "/oauth2/introspect",
      headers: {
        authorization: basic(`${OPERATOR_ID}:${SECRET}`),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: `token=${t}`,
    });
    expect(introspected.json()).toMatchObject({ active: true, client_id: OPERATOR_ID });
  });

  it("refuses credentials with NUL, control characters or invalid UTF-8 (Basic: invalid_client, 401; a form body: the edge's 400), never a server error", async () => {
    for (const header of [
      basic(`${OPERATOR_ID}:${SECRET}\u0000`),
      basic(`op\u0000:x`),
      basic(Buffer.from([0x6f, 0x70, 0x3a, 0xc3, 0x28])),
      basic(`${OPERATOR_ID}:%00`),
      "Basic \u0000",
    ]) {
      const res = await token(header);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("invalid_client");
      expect(String(res.headers["www-authenticate"])).toMatch(/^Basic /);
    }
    for (const body of [
      `grant_type=client_credentials&client_id=${OPERATOR_ID}&client_secret=%00`,
      "grant_type=client_credentials&client_id=a%00b&client_secret=x",
      "grant_type=refresh_token&client_id=%00&refresh_token=x",
    ]) {
      const res = await s.app.inject({
        method: "POST",
        url: "/oauth2/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: body,
      });
      // A NUL in a form body is refused by the form parser before client authentication (contract section 10, issue 15).
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("invalid_request");
    }
  });

  it("answers an unknown public client (a client_id without secret) invalid_client", async () => {
    const res = await s.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=refresh_token&client_id=123456789012_nope&refresh_token=x",
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("invalid_client");
  });
});
