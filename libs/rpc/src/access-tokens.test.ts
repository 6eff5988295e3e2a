import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createAccessTokenVerifier, keysByKid } from "./access-tokens.ts";
import { verifiedTokenCache } from "./verified-tokens.ts";

const ISSUER = "https://auth.example.test";
const AUDIENCE = "https://api.example.test";

async function signer(kid = "k1") {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const sign = (claims: Record<string, unknown>, expSeconds = Math.floor(Date.now() / 1000) + 300) =>
    new SignJWT({ client_id: "app", scope: "users:access", ...claims })
      .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(expSeconds)
      .sign(privateKey);
  return { jwk, sign };
}

describe("access token verifier with verified signatures remembered", () => {
  it("asks the revocation marks on every use, so a token revoked after its first use is refused at once", async () => {
    const { jwk, sign } = await signer();
    const revoked = new Set<string>();
    const asked: string[] = [];
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [jwk] }),
      issuer: ISSUER,
      audiences: [AUDIENCE],
      isRevoked: async (t) => (asked.push(t.jti), revoked.has(t.jti)),
    });
    const token = await sign({ sub: "app", jti: "j1" });
    expect((await verify(token))?.scopes.has("users:access")).toBe(true);
    expect((await verify(token))?.subject).toBe("app");
    revoked.add("j1");
    expect(await verify(token)).toBeUndefined();
    expect(asked).toEqual(["j1", "j1", "j1"]);
  });

  it("refuses a token whose signature does not match, even when a valid token with the same claims was seen", async () => {
    const { jwk, sign } = await signer();
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => ({ keys: [jwk] }),
      issuer: ISSUER,
      audiences: [AUDIENCE],
    });
    const token = await sign({ sub: "app", jti: "j2" });
    expect(await verify(token)).toBeDefined();
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${payload}.${signature!.slice(0, -4)}${signature!.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect(await verify(tampered)).toBeUndefined();
  });
});

describe("access token verifier's key set", () => {
  it("fetches the key set again for an unknown kid (a rotation elsewhere), and a fetch that fails is an error, not an invalid token", async () => {
    const old = await signer();
    const rotated = await signer("k2");
    let served = [old.jwk];
    let fetches = 0;
    const verify = createAccessTokenVerifier({
      fetchJwks: async () => (fetches++, { keys: served }),
      issuer: ISSUER,
      audiences: [AUDIENCE],
    });
    expect(await verify(await old.sign({ sub: "a", jti: "j3" }))).toBeDefined();
    served = [old.jwk, rotated.jwk];
    const fresh = await rotated.sign({ sub: "a", jti: "j4" });
    expect((await verify(fresh))?.subject).toBe("a");
    expect(fetches).toBe(2);
    const failing = createAccessTokenVerifier({
      fetchJwks: async () => Promise.reject(new Error("auth unreachable")),
      issuer: ISSUER,
      audiences: [AUDIENCE],
    });
    await expect(failing(fresh)).rejects.toThrow("auth unreachable");
  });

  it("picks, by kid, only signing keys of our algorithms; a kid named twice picks nothing", async () => {
    const { jwk } = await signer();
    const small = {
      ...(generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ format: "jwk" }) as JWK),
      kid: "small",
      alg: "RS256",
    };
    const keys = keysByKid({
      keys: [
        jwk,
        { ...jwk, kid: "enc", use: "enc" },
        { ...jwk, kid: "sign-only", key_ops: ["sign"] },
        { ...jwk, kid: "hs", alg: "HS256" },
        { ...jwk, kid: "twice" },
        { ...jwk, kid: "twice" },
        { ...jwk, kid: "no-alg", alg: undefined },
        small,
      ],
    });
    expect([...keys.keys()].sort()).toEqual(["k1", "no-alg"]);
    expect(keys.get("no-alg")?.alg).toBe("RS256");
  });
});

describe("verifiedTokenCache", () => {
  const payload = (exp: number) => ({ sub: "s", jti: "j", exp });

  it("keeps a token until the earlier of its exp and the TTL", () => {
    let now = 1_000_000;
    const cache = verifiedTokenCache<{ sub: string; exp?: number }>({ ttlMs: 60_000, now: () => now });
    cache.put("short", payload(1_000 + 10), 1_000 + 10); // exp in 10 s
    cache.put("long", payload(1_000 + 3_600), 1_000 + 3_600);
    now += 10_000;
    expect(cache.get("short")).toBeUndefined();
    expect(cache.get("long")).toBeDefined();
    now += 50_000;
    expect(cache.get("long")).toBeUndefined();
  });

  it("does not keep a token without exp or already expired", () => {
    const cache = verifiedTokenCache<{ sub: string; exp?: number }>({ now: () => 1_000_000 });
    cache.put("none", { sub: "s" }, undefined);
    cache.put("expired", payload(999), 999);
    expect(cache.size).toBe(0);
  });

  it("holds at most maxEntries, dropping the least recently used", () => {
    const cache = verifiedTokenCache<{ sub: string; exp?: number }>({ maxEntries: 2, now: () => 0 });
    cache.put("a", payload(100), 100);
    cache.put("b", payload(100), 100);
    expect(cache.get("a")).toBeDefined(); // a is now the most recent
    cache.put("c", payload(100), 100);
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
  });
});
