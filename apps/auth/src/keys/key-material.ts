import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";

/**
 * The signing algorithms the server offers (contract sections 4 and 9):
 * RS256 (RSA 2048, the OpenID Connect mandatory algorithm and the default),
 * ES256 (P-256) or EdDSA (Ed25519).
 */
export type SigningAlg = "RS256" | "ES256" | "EdDSA";

export const SIGNING_ALGS: readonly SigningAlg[] = ["RS256", "ES256", "EdDSA"];

export interface GeneratedKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
  privateJwk: JWK;
}

const RSA_MODULUS_BITS = 2048;

let testKeySource: ((alg: SigningAlg) => GeneratedKey | undefined) | undefined;

/**
 * Tests only (refused unless NODE_ENV=test): keys taken from a pool the test
 * suite keeps instead of generated (an RSA key is ~70 ms of CPU, two per
 * stack). The suite's source must never give one key twice to a database;
 * undefined generates again.
 */
export function useTestSigningKeys(source: ((alg: SigningAlg) => GeneratedKey | undefined) | undefined): void {
  if (process.env.NODE_ENV !== "test") throw new Error("test signing keys are for the test suite only (NODE_ENV=test)");
  testKeySource = source;
}

/** A fresh key pair for alg, named by its RFC 7638 thumbprint. */
export async function generateSigningKey(alg: SigningAlg): Promise<GeneratedKey> {
  const pooled = testKeySource?.(alg);
  if (pooled) return pooled;
  const pair =
    alg === "EdDSA"
      ? await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })
      : alg === "RS256"
        ? await generateKeyPair("RS256", { modulusLength: RSA_MODULUS_BITS, extractable: true })
        : await generateKeyPair("ES256", { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  const kid = await calculateJwkThumbprint(publicJwk, "sha256");
  return { kid, alg, publicJwk, privateJwk };
}

/** The JWK Set entry of a public key (RFC 7517 section 4): the key's public members, use, alg and kid. */
export function publishedJwk(publicJwk: JWK, kid: string, alg: SigningAlg): JWK {
  const { kty, crv, x, y, n, e } = publicJwk;
  const members = kty === "RSA" ? { kty, n, e } : { kty, crv, x, ...(y === undefined ? {} : { y }) };
  return { ...members, use: "sig", alg, kid };
}
