import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { ClientAuthMethod } from "@gatehouse/proto";
import { basicCredentials, presentedClient } from "./client-auth.ts";
import { singleParams } from "./form.ts";

const req = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as FastifyRequest;
const basic = (raw: string | Buffer) => `Basic ${Buffer.from(raw).toString("base64")}`;

describe("client authentication parsing", () => {
  it("decodes client_secret_basic with form-encoded parts", () => {
    const r = presentedClient(req(basic("my%20app:s%3Acret")), {});
    expect(r).toEqual({
      ok: true,
      usedBasic: true,
      client: {
        method: ClientAuthMethod.CLIENT_SECRET_BASIC,
        clientId: "my app",
        clientSecret: "s:cret",
        alternateClientSecret: "s%3Acret",
      },
    });
  });
  it("reads raw Basic secrets too: the form-decoded reading first, the raw one as the alternate when both are valid", () => {
    // Nothing to decode: one reading.
    expect(basicCredentials(basic("app:plain-secret_01"))).toEqual({ id: "app", secret: "plain-secret_01" });
    // `+` and `%41` decode to something else: both readings go to the auth service.
    expect(basicCredentials(basic("app:a+b%41"))).toEqual({ id: "app", secret: "a bA", alternate: "a+b%41" });
    // `%` that does not decode (or decodes to invalid UTF-8, or to NUL): only the raw reading.
    expect(basicCredentials(basic("app:100%sure"))).toEqual({ id: "app", secret: "100%sure" });
    expect(basicCredentials(basic("app:x%FFy"))).toEqual({ id: "app", secret: "x%FFy" });
    expect(basicCredentials(basic("app:x%00y"))).toEqual({ id: "app", secret: "x%00y" });
    // A colon in the secret stays in the secret.
    expect(basicCredentials(basic("app:a:b"))).toEqual({ id: "app", secret: "a:b" });
  });
  it("refuses Basic credentials with NUL, control characters or invalid UTF-8 as malformed (invalid_client, not a server error)", () => {
    for (const raw of [
      "app:sec\u0000ret",
      "ap\u0000p:secret",
      "app:line\nbreak",
      Buffer.from([0x61, 0x3a, 0xff, 0xfe]),
      ":secret",
      ":",
      "ap\u0000p:",
    ]) {
      expect(presentedClient(req(basic(raw)), {})).toMatchObject({
        ok: false,
        reason: "INVALID_CLIENT",
        usedBasic: true,
      });
    }
  });
  it("reads Basic credentials with an empty secret as the client_id alone (method none), as requests-oauthlib and x/oauth2 send a public client's", () => {
    expect(presentedClient(req(basic("100_web:")), {})).toEqual({
      ok: true,
      usedBasic: true,
      client: { method: ClientAuthMethod.NONE, clientId: "100_web", clientSecret: "" },
    });
    expect(presentedClient(req(basic("100_web:")), { client_id: "100_web" })).toMatchObject({
      ok: true,
      client: { method: ClientAuthMethod.NONE },
    });
    expect(presentedClient(req(basic("100_web:")), { client_id: "other" })).toMatchObject({
      ok: false,
      reason: "INVALID_REQUEST",
    });
    expect(presentedClient(req(basic("100_web:")), { client_secret: "s" })).toMatchObject({
      ok: false,
      reason: "INVALID_REQUEST",
    });
  });
  it("reads client_secret_post, and a client_id alone as a public client (method none)", () => {
    expect(presentedClient(req(), { client_id: "a", client_secret: "b" })).toMatchObject({
      ok: true,
      usedBasic: false,
      client: { method: ClientAuthMethod.CLIENT_SECRET_POST },
    });
    expect(presentedClient(req(), { client_id: "100_web" })).toEqual({
      ok: true,
      usedBasic: false,
      client: { method: ClientAuthMethod.NONE, clientId: "100_web", clientSecret: "" },
    });
    expect(presentedClient(req(), { client_id: "a\u0000", client_secret: "b" })).toMatchObject({
      ok: false,
      reason: "INVALID_CLIENT",
    });
    expect(presentedClient(req(), { client_id: "a", client_secret: "b\u0000" })).toMatchObject({
      ok: false,
      reason: "INVALID_CLIENT",
    });
  });
  it("refuses malformed Basic, two methods, mismatched ids and no credentials", () => {
    expect(presentedClient(req("Basic %%%"), {})).toMatchObject({
      ok: false,
      reason: "INVALID_CLIENT",
      usedBasic: true,
    });
    expect(presentedClient(req(basic("nocolon")), {})).toMatchObject({ ok: false, reason: "INVALID_CLIENT" });
    expect(presentedClient(req(basic("a:b")), { client_secret: "b" })).toMatchObject({
      ok: false,
      reason: "INVALID_REQUEST",
    });
    expect(presentedClient(req(basic("a:b")), { client_id: "c" })).toMatchObject({
      ok: false,
      reason: "INVALID_REQUEST",
    });
    expect(presentedClient(req(), {})).toMatchObject({ ok: false, reason: "INVALID_CLIENT", usedBasic: false });
  });
  it("refuses repeated form parameters and drops empty ones", () => {
    expect(singleParams({ a: ["1", "2"] })).toEqual({ repeated: "a" });
    expect(singleParams({ a: "1", b: "" })).toEqual({ params: { a: "1" } });
  });
});
