import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { ClientAuthMethod } from "@gatehouse/proto";
import { presentedClient } from "./client-auth.ts";
import { singleParams } from "./form.ts";

const req = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as FastifyRequest;
const basic = (raw: string) => `Basic ${Buffer.from(raw).toString("base64")}`;

describe("client authentication parsing", () => {
  it("decodes client_secret_basic with form-encoded parts", () => {
    const r = presentedClient(req(basic("my%20app:s%3Acret")), {});
    expect(r).toEqual({ ok: true, usedBasic: true, client: { method: ClientAuthMethod.CLIENT_SECRET_BASIC, clientId: "my app", clientSecret: "s:cret" } });
  });
  it("reads client_secret_post", () => {
    const r = presentedClient(req(), { client_id: "a", client_secret: "b" });
    expect(r).toMatchObject({ ok: true, usedBasic: false, client: { method: ClientAuthMethod.CLIENT_SECRET_POST } });
  });
  it("refuses malformed Basic, two methods, mismatched ids and no credentials", () => {
    expect(presentedClient(req("Basic %%%"), {})).toMatchObject({ ok: false, reason: "INVALID_CLIENT", usedBasic: true });
    expect(presentedClient(req(basic("nocolon")), {})).toMatchObject({ ok: false, reason: "INVALID_CLIENT" });
    expect(presentedClient(req(basic("a:b")), { client_secret: "b" })).toMatchObject({ ok: false, reason: "INVALID_REQUEST" });
    expect(presentedClient(req(basic("a:b")), { client_id: "c" })).toMatchObject({ ok: false, reason: "INVALID_REQUEST" });
    expect(presentedClient(req(), { client_id: "a" })).toMatchObject({ ok: false, reason: "INVALID_CLIENT", usedBasic: false });
  });
  it("refuses repeated form parameters and drops empty ones", () => {
    expect(singleParams({ a: ["1", "2"] })).toEqual({ repeated: "a" });
    expect(singleParams({ a: "1", b: "" })).toEqual({ params: { a: "1" } });
  });
});
