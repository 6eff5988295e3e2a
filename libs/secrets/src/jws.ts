import { createPrivateKey, sign, type JsonWebKey } from "node:crypto";

/** The JWS algorithms the server signs with: RS256 (RSASSA-PKCS1-v1_5, SHA-256), ES256 (P-256), EdDSA (Ed25519). */
export type JwsAlg = "RS256" | "ES256" | "EdDSA";

/**
 * A compact JWS signer for one key: the protected header is encoded once and
 * each token costs one JSON.stringify and one node:crypto signature with a
 * KeyObject, computed on libuv's thread pool so that signing runs beside the
 * event loop rather than on it (about a third of jose's SignJWT cost on the
 * token hot path). ./jwt-verify.ts verifies them.
 */
export function compactJwsSigner(opts: { alg: JwsAlg; privateJwk: JsonWebKey; kid: string; typ: string }) {
  const key = createPrivateKey({ key: opts.privateJwk, format: "jwk" });
  const head = Buffer.from(JSON.stringify({ alg: opts.alg, typ: opts.typ, kid: opts.kid })).toString("base64url");
  // Ed25519 hashes internally; RS256 is PKCS#1 v1.5 (node's default RSA padding); ES256 wants the raw r||s form.
  const digest = opts.alg === "EdDSA" ? null : "sha256";
  const signingKey = opts.alg === "ES256" ? { key, dsaEncoding: "ieee-p1363" as const } : key;
  return (payload: Record<string, unknown>): Promise<string> => {
    const input = `${head}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
    return new Promise((resolve, reject) =>
      sign(digest, Buffer.from(input), signingKey, (err, signature) =>
        err ? reject(err) : resolve(`${input}.${signature.toString("base64url")}`),
      ),
    );
  };
}
