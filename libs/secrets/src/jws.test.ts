import { exportJWK, generateKeyPair, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { compactJwsSigner } from "./jws.ts";

describe.each(["RS256", "ES256", "EdDSA"] as const)("compact JWS signer (%s)", (alg) => {
  it("signs tokens that jose verifies, with the header it was given", async () => {
    const pair = await generateKeyPair(alg, { extractable: true });
    const sign = compactJwsSigner({
      alg,
      privateJwk: (await exportJWK(pair.privateKey)) as never,
      kid: "k1",
      typ: "at+jwt",
    });
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ iss: "https://a", sub: "s", iat: now, exp: now + 60 });
    const { payload, protectedHeader } = await jwtVerify(token, pair.publicKey, { issuer: "https://a", typ: "at+jwt" });
    expect(protectedHeader).toEqual({ alg, typ: "at+jwt", kid: "k1" });
    expect(payload.sub).toBe("s");
    const tampered = token.replace(
      /\.[^.]+\./,
      `.${Buffer.from(JSON.stringify({ iss: "https://a", sub: "x", exp: now + 60 })).toString("base64url")}.`,
    );
    await expect(jwtVerify(tampered, pair.publicKey)).rejects.toThrow();
  });
});
