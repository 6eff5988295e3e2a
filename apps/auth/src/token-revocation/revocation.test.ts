import { Code } from "@connectrpc/connect";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { randomSecret } from "@gatehouse/secrets";
import {
  backends,
  creds,
  failure,
  OPERATOR,
  OTHER,
  SHOP,
  tokenFor,
  useAuthService,
  type AuthHarness,
  type Stores,
} from "../../test/harness.ts";

describe.each(backends)("revocation (RFC 7009) on %s", (_name, open) => {
  let stores: Stores;
  let h: AuthHarness;
  useAuthService(open, (ctx) => ({ stores, h } = ctx));

  const revoke = (token: string, caller: { clientId: string; secret: string } = SHOP, tokenTypeHint = "") =>
    h.auth.revokeToken({ client: creds(caller), token, tokenTypeHint });
  const active = async (token: string) => (await h.auth.introspectToken({ client: creds(OPERATOR), token })).active;

  it("revokes the client's own token; introspection then says inactive", async () => {
    const token = await tokenFor(h, SHOP);
    const untouched = await tokenFor(h, SHOP);
    expect(await active(token)).toBe(true);
    await revoke(token, SHOP, "access_token");
    expect(await active(token)).toBe(false);
    expect(await active(untouched)).toBe(true);
    // Revoking again is still a success.
    await revoke(token);
  });

  it("marks the jti in the shared store (what other services' verifiers read)", async () => {
    const token = await tokenFor(h, SHOP);
    const { jti, sub } = decodeJwt(token);
    expect(await h.mod.isRevoked({ jti: jti!, sub: sub! })).toBe(false);
    await revoke(token);
    expect(await h.mod.isRevoked({ jti: jti!, sub: sub! })).toBe(true);
    expect(await stores.kv.get(`revoked:at:${jti}`)).not.toBeNull();
  });

  it("refuses to revoke another client's token: unauthorized_client, and the token stays active", async () => {
    const token = await tokenFor(h, OTHER);
    const f = await failure(revoke(token, SHOP));
    expect(f.reason).toBe("UNAUTHORIZED_CLIENT");
    expect(f.code).toBe(Code.PermissionDenied);
    expect(await active(token)).toBe(true);
  });

  it.each([["garbage"], ["a.b.c"], [randomSecret(32)], [""]])(
    "answers success for the unknown token %j",
    async (token) => {
      await expect(revoke(token)).resolves.toBeDefined();
    },
  );

  it("ignores a token_type_hint it does not know, and refresh_token for an access token", async () => {
    const a = await tokenFor(h, SHOP);
    await revoke(a, SHOP, "something_else");
    expect(await active(a)).toBe(false);
    const b = await tokenFor(h, SHOP);
    await revoke(b, SHOP, "refresh_token");
    expect(await active(b)).toBe(false);
  });

  it("authenticates the client first: invalid_client", async () => {
    const token = await tokenFor(h, SHOP);
    const f = await failure(revoke(token, { clientId: SHOP.clientId, secret: "nope" }));
    expect(f.reason).toBe("INVALID_CLIENT");
    expect(f.code).toBe(Code.Unauthenticated);
    expect(await active(token)).toBe(true);
  });
});
