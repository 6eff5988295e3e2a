import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";

/** The signing algorithms the server offers (contract section 4): Ed25519 or P-256. */
export type SigningAlg = "EdDSA" | "ES256";

export interface GeneratedKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** A fresh key pair for alg, named by its RFC 7638 thumbprint. */
export async function generateSigningKey(alg: SigningAlg): Promise<GeneratedKey> {
  const pair =
    alg === "EdDSA"
      ? await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })
      : await generateKeyPair("ES256", { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  const kid = await calculateJwkThumbprint(publicJwk, "sha256");
  return { kid, alg, publicJwk, privateJwk };
}

/** A stored JWK as a key for jose (public for verification, private for signing). */
export async function importKey(jwk: JWK, alg: SigningAlg): Promise<CryptoKey> {
  const key = await importJWK(jwk, alg);
  if (key instanceof Uint8Array) throw new Error("a signing key must be asymmetric");
  return key;
}

/** The JWK Set entry of a public key (RFC 7517 section 4). */
export function publishedJwk(publicJwk: JWK, kid: string, alg: SigningAlg): JWK {
  const { kty, crv, x, y } = publicJwk;
  return { kty, crv, x, ...(y === undefined ? {} : { y }), use: "sig", alg, kid };
}
