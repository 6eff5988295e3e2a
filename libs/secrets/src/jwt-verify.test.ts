import { KeyObject } from "node:crypto";
import { CompactSign, generateKeyPair, jwtVerify, type CryptoKey } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { JwsAlg } from "./jws.ts";
import { JwtRejected, verifyJwt, type JwtRejection, type JwtVerifyOptions } from "./jwt-verify.ts";
import { signatureMemo } from "./signature-memo.ts";

// verifyJwt keeps every check jose's jwtVerify made on our tokens: each case
// below is verified by both, with the same key lookup and options, and must
// pass or fail alike; the rejection's reason is pinned too.

const ISS = "https://id.example.com";
const AUD = "https://api.example.com";
const now = Math.floor(Date.now() / 1000);
const claims = { iss: ISS, aud: AUD, sub: "u1", jti: "j1", iat: now, exp: now + 300 };
const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

interface Pair {
  alg: JwsAlg;
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}
const pairs = {} as Record<JwsAlg, Pair>;
let stranger: Pair;

beforeAll(async () => {
  for (const alg of ["RS256", "ES256", "EdDSA"] as const)
    pairs[alg] = { alg, kid: `k-${alg}`, ...(await generateKeyPair(alg, { extractable: true })) };
  stranger = { alg: "RS256", kid: "k-RS256", ...(await generateKeyPair("RS256")) };
});

const options = (over: Partial<JwtVerifyOptions> = {}): JwtVerifyOptions => ({
  key: (kid) => {
    const p = Object.values(pairs).find((x) => x.kid === kid);
    return p && { alg: p.alg, key: KeyObject.from(p.publicKey) };
  },
  algorithms: ["RS256", "ES256", "EdDSA"],
  typ: "at+jwt",
  issuer: ISS,
  audience: AUD,
  requiredClaims: ["exp", "iat", "jti", "sub"],
  ...over,
});

/** jose's verdict with the same options: the key of the kid when its alg is the token's, as auth's keyFor did. */
async function jose(token: string, o: JwtVerifyOptions): Promise<boolean> {
  try {
    await jwtVerify(
      token,
      async (header) => {
        const found = typeof header.kid === "string" ? await o.key(header.kid) : undefined;
        if (!found || found.alg !== header.alg) throw new Error("unknown signing key");
        return found.key;
      },
      {
        issuer: o.issuer,
        ...(o.audience === undefined ? {} : { audience: o.audience as string | string[] }),
        typ: o.typ,
        algorithms: [...o.algorithms],
        ...(o.requiredClaims ? { requiredClaims: [...o.requiredClaims] } : {}),
        ...(o.clockToleranceSeconds === undefined ? {} : { clockTolerance: o.clockToleranceSeconds }),
      },
    );
    return true;
  } catch {
    return false;
  }
}

async function ours(token: string, o: JwtVerifyOptions): Promise<JwtRejection | "ok"> {
  try {
    await verifyJwt(token, o);
    return "ok";
  } catch (err) {
    if (!(err instanceof JwtRejected)) throw err;
    return err.reason;
  }
}

async function signed(pair: Pair, payload: unknown, header: Record<string, unknown> = {}) {
  return new CompactSign(Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload)))
    .setProtectedHeader({ alg: pair.alg, typ: "at+jwt", kid: pair.kid, ...header })
    .sign(pair.privateKey);
}

async function expectBoth(token: string, expected: JwtRejection | "ok", o = options()) {
  expect(await ours(token, o)).toBe(expected);
  expect(await jose(token, o)).toBe(expected === "ok");
}

describe.each(["RS256", "ES256", "EdDSA"] as const)("verifyJwt (%s), as jose's jwtVerify", (alg) => {
  const pair = () => pairs[alg];

  it("accepts our token and returns its header and claims; typ compares as a media type", async () => {
    const token = await signed(pair(), claims);
    expect(await verifyJwt(token, options())).toEqual({
      header: { alg, typ: "at+jwt", kid: `k-${alg}` },
      payload: claims,
    });
    await expectBoth(token, "ok");
    await expectBoth(await signed(pair(), claims, { typ: "application/AT+JWT" }), "ok");
    await expectBoth(await signed(pair(), { ...claims, aud: ["other", AUD] }), "ok");
    await expectBoth(token, "ok", options({ audience: ["x", AUD] }));
  });

  it("refuses a malformed token", async () => {
    const token = await signed(pair(), claims);
    const [h, p, s] = token.split(".") as [string, string, string];
    await expectBoth(`${h}.${p}`, "malformed");
    await expectBoth(`${token}.x`, "malformed");
    await expectBoth(`${b64("{not json")}.${p}.${s}`, "malformed");
    await expectBoth(`${b64([1])}.${p}.${s}`, "malformed");
    await expectBoth(`${h}.${p}.${s}!`, "malformed");
    await expectBoth(`${h}.${p}.${s.slice(0, -1)}`, s.length % 4 === 2 ? "malformed" : "signature");
    await expectBoth(await signed(pair(), [claims]), "malformed");
    await expectBoth(await signed(pair(), "not json"), "malformed");
    const critical = (header: Record<string, unknown>) =>
      new CompactSign(Buffer.from(JSON.stringify(claims)))
        .setProtectedHeader({ alg, typ: "at+jwt", kid: `k-${alg}`, ...header })
        .sign(pair().privateKey, { crit: { exp: true } });
    await expectBoth(await critical({ crit: ["exp"], exp: 1 }), "malformed");
    // Stricter than jose on one point: jose accepts `crit: ["b64"]` with b64 true; we never sign a crit header.
    expect(await ours(await critical({ crit: ["b64"], b64: true }), options())).toBe("malformed");
  });

  it("refuses an alg it does not allow, an alg other than the key's, an unknown or missing kid", async () => {
    const token = await signed(pair(), claims);
    const [, p, s] = token.split(".");
    await expectBoth(`${b64({ alg: "none", typ: "at+jwt", kid: `k-${alg}` })}.${p}.`, "alg");
    await expectBoth(`${b64({ alg: "HS256", typ: "at+jwt", kid: `k-${alg}` })}.${p}.${s}`, "alg");
    await expectBoth(token, "alg", options({ algorithms: [alg === "RS256" ? "ES256" : "RS256"] }));
    const otherAlg = alg === "EdDSA" ? "RS256" : "EdDSA";
    await expectBoth(`${b64({ alg: otherAlg, typ: "at+jwt", kid: `k-${alg}` })}.${p}.${s}`, "key");
    await expectBoth(await signed(pair(), claims, { kid: "k-unknown" }), "key");
    await expectBoth(`${b64({ alg, typ: "at+jwt" })}.${p}.${s}`, "key");
  });

  it("refuses a signature by another key and a changed claims set", async () => {
    // Another RS256 key under our RS256 key's kid.
    await expectBoth(await signed(stranger, claims), "signature");
    const token = await signed(pair(), claims);
    const [h, , s] = token.split(".");
    await expectBoth(`${h}.${b64({ ...claims, sub: "u2" })}.${s}`, "signature");
  });

  it("refuses another typ, a missing claim, another issuer or audience", async () => {
    await expectBoth(await signed(pair(), claims, { typ: "JWT" }), "typ");
    const untyped = new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg, kid: `k-${alg}` });
    await expectBoth(await untyped.sign(pair().privateKey), "typ");
    for (const claim of ["exp", "iat", "jti", "sub", "aud", "iss"] as const) {
      const { [claim]: _gone, ...rest } = claims;
      await expectBoth(await signed(pair(), rest), "claims");
    }
    await expectBoth(await signed(pair(), { ...claims, iss: "https://elsewhere" }), "claims");
    await expectBoth(await signed(pair(), { ...claims, aud: "https://other-api" }), "claims");
    await expectBoth(await signed(pair(), { ...claims, aud: ["https://other-api"] }), "claims");
    await expectBoth(await signed(pair(), { ...claims, aud: 7 }), "claims");
  });

  it("checks iat, nbf and exp as jose does, with the same clock tolerance", async () => {
    await expectBoth(await signed(pair(), { ...claims, iat: "now" }), "claims");
    await expectBoth(await signed(pair(), { ...claims, exp: String(now + 60) }), "claims");
    await expectBoth(await signed(pair(), { ...claims, nbf: "soon" }), "claims");
    await expectBoth(await signed(pair(), { ...claims, nbf: now + 120 }), "claims");
    await expectBoth(
      await signed(pair(), { ...claims, nbf: now + 120 }),
      "ok",
      options({ clockToleranceSeconds: 180 }),
    );
    await expectBoth(await signed(pair(), { ...claims, nbf: now - 1 }), "ok");
    await expectBoth(await signed(pair(), { ...claims, exp: now - 1 }), "expired");
    await expectBoth(await signed(pair(), { ...claims, exp: now - 1 }), "ok", options({ clockToleranceSeconds: 30 }));
    // An expired token's claims come with the rejection (the logout's id_token_hint reads them).
    const expired = await verifyJwt(await signed(pair(), { ...claims, exp: now - 10 }), options()).catch(
      (e: unknown) => e,
    );
    expect(expired).toBeInstanceOf(JwtRejected);
    expect((expired as JwtRejected).payload).toMatchObject({ sub: "u1", exp: now - 10 });
  });
});

describe("verifyJwt with a signature memo", () => {
  it("remembers a verified token with its key, and checks claims, key and signature bytes on every use", async () => {
    const signatures = signatureMemo(2);
    const token = await signed(pairs.RS256, claims);
    const key = KeyObject.from(pairs.RS256.publicKey);
    const opts = options({ signatures, key: () => ({ alg: "RS256", key }) });
    expect((await verifyJwt(token, opts)).payload.sub).toBe("u1");
    expect(signatures.verified(token, key)).toBe(true);
    expect((await verifyJwt(token, opts)).payload.sub).toBe("u1");
    // The claims are read again on a hit: an expired token is refused though its signature was remembered.
    await expect(verifyJwt(token, { ...opts, now: () => now + 301 })).rejects.toMatchObject({ reason: "expired" });
    // Another key under the kid (a rotation) verifies again, and fails.
    const other = KeyObject.from(stranger.publicKey);
    await expect(verifyJwt(token, { ...opts, key: () => ({ alg: "RS256", key: other }) })).rejects.toMatchObject({
      reason: "signature",
    });
    // A remembered signature pasted under other claims does not pass: the memo is by the whole token.
    const [h, , s] = token.split(".");
    const forged = `${h}.${b64({ ...claims, sub: "admin" })}.${s}`;
    await expect(verifyJwt(forged, opts)).rejects.toMatchObject({ reason: "signature" });
    expect(signatures.verified(forged, key)).toBe(false);
    // Bounded: the oldest goes first.
    const second = await signed(pairs.RS256, { ...claims, jti: "j2" });
    const third = await signed(pairs.RS256, { ...claims, jti: "j3" });
    await verifyJwt(second, opts);
    await verifyJwt(third, opts);
    expect([token, second, third].map((t) => signatures.verified(t, key))).toEqual([false, true, true]);
  });
});
