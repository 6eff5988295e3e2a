import { describe, expect, it } from "vitest";
import { openKv } from "@gatehouse/kv";
import { errorFacts } from "@gatehouse/errors";
import { handler } from "../grants/authorization-code.ts";
import type { GrantContext } from "../grants/grant.ts";
import { createAuthorizationCodes } from "./authorization-codes.ts";

const grant = {
  clientId: "app",
  userId: "u1",
  redirectUri: "https://a.example/cb",
  scope: "openid",
  codeChallenge: "c".repeat(43),
  authTime: 1,
};
const reason = async (p: Promise<unknown>) =>
  errorFacts(
    await p.then(
      () => new Error("expected a failure"),
      (e: unknown) => e,
    ),
  ).reason;

describe("authorization codes", () => {
  it("accepts a lifetime of 60-600 s only", () => {
    const kv = openKv({});
    expect(() => createAuthorizationCodes({ kv, hashCode: (c) => c, ttlSeconds: 59 })).toThrow(/60-600/);
    expect(() => createAuthorizationCodes({ kv, hashCode: (c) => c, ttlSeconds: 601 })).toThrow(/60-600/);
    expect(createAuthorizationCodes({ kv, hashCode: (c) => c, ttlSeconds: 600 }).ttlSeconds).toBe(600);
  });

  it("refuses a code past its lifetime", async () => {
    let t = 1_000_000;
    const codes = createAuthorizationCodes({ kv: openKv({}), hashCode: (c) => `h${c}`, ttlSeconds: 60, now: () => t });
    const code = await codes.issue(grant);
    t += 60_000;
    expect(await reason(codes.redeem(code, "app"))).toBe("INVALID_GRANT");
  });

  it("refuses a code_verifier for a code issued without a challenge", async () => {
    const codes = createAuthorizationCodes({ kv: openKv({}), hashCode: (c) => `h${c}`, ttlSeconds: 60 });
    const code = await codes.issue({ ...grant, codeChallenge: "" });
    const ctx = {
      client: { clientId: "app" },
      params: { code, redirect_uri: grant.redirectUri, code_verifier: "v".repeat(43) },
      codes,
      // Never reached: the grant stops before any token is issued.
      tokens: undefined,
      sessions: undefined,
      idTokens: undefined,
    } as unknown as GrantContext;
    expect(await reason(handler(ctx))).toBe("INVALID_GRANT");
  });
});
