import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { KeyRing } from "@gatehouse/secrets";
import { InternalTokens, looksInternal } from "./internal-token.ts";

describe("internal service tokens", () => {
  const ring = new KeyRing(randomBytes(32));
  const tokens = new InternalTokens(ring);

  it("mints a cached token that verifies as service:<name> with the internal scope", async () => {
    const t = await tokens.token("gateway");
    expect(await tokens.token("gateway")).toBe(t);
    expect(looksInternal(t)).toBe(true);
    const p = await tokens.verify(t);
    expect(p).toMatchObject({ subject: "service:gateway", internal: true });
    expect([...p!.scopes]).toEqual(["internal"]);
  });
  it("carries extra scopes beside the internal one (the CLI reads as an operator); a token without the internal scope is not ours", async () => {
    const t = await tokens.token("cli", ["admin:read"]);
    expect(t).not.toBe(await tokens.token("cli"));
    const p = await tokens.verify(t);
    expect(p).toMatchObject({ subject: "service:cli", internal: true });
    expect([...p!.scopes].sort()).toEqual(["admin:read", "internal"]);
    const key = new Uint8Array(ring.derive("rpc-internal-token"));
    const scopeless = await new SignJWT({ scope: "admin" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("gatehouse-internal")
      .setAudience("gatehouse-internal")
      .setSubject("service:x")
      .setExpirationTime("1m")
      .sign(key);
    expect(await tokens.verify(scopeless)).toBeUndefined();
  });
  it("refuses tokens of another deployment key, foreign issuers and non-service subjects", async () => {
    const other = new InternalTokens(new KeyRing(randomBytes(32)));
    expect(await tokens.verify(await other.token("gateway"))).toBeUndefined();
    const key = new Uint8Array(ring.derive("rpc-internal-token"));
    const forged = await new SignJWT({ scope: "internal" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("gatehouse-internal")
      .setAudience("gatehouse-internal")
      .setSubject("user:1")
      .setExpirationTime("1m")
      .sign(key);
    expect(await tokens.verify(forged)).toBeUndefined();
    const expired = await new SignJWT({ scope: "internal" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("gatehouse-internal")
      .setAudience("gatehouse-internal")
      .setSubject("service:x")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(key);
    expect(await tokens.verify(expired)).toBeUndefined();
    expect(await tokens.verify("garbage")).toBeUndefined();
  });
});
