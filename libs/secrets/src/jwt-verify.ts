import { createPublicKey, verify, type JsonWebKey, type KeyObject } from "node:crypto";
import type { JwsAlg } from "./jws.ts";
import type { SignatureMemo } from "./signature-memo.ts";

/**
 * Why a JWT was refused: `malformed` (not three base64url parts, a header or
 * claims set that is not a JSON object, a `crit` header), `alg` (missing or
 * not allowed), `key` (no key for its kid and alg), `signature`, `typ`,
 * `claims` (a required claim missing, issuer or audience not ours, a
 * timestamp that is not a number, nbf in the future), `expired`.
 */
export type JwtRejection = "malformed" | "alg" | "key" | "signature" | "typ" | "claims" | "expired";

export class JwtRejected extends Error {
  readonly reason: JwtRejection;
  /** The claims, once the signature was verified (as jose's JWTExpired carries them). */
  readonly payload: Record<string, unknown> | undefined;
  constructor(reason: JwtRejection, message: string, payload?: Record<string, unknown>) {
    super(message);
    this.name = "JwtRejected";
    this.reason = reason;
    this.payload = payload;
  }
}

export interface JwtVerifyKey {
  alg: JwsAlg;
  key: KeyObject;
}

/**
 * A public JWK as a node:crypto key that verifies `alg`; undefined for a key
 * of another type or curve, or an RSA key under 2048 bits (which jose
 * refused too), and for anything that is not a public key of ours to read.
 */
export function publicKeyFor(jwk: JsonWebKey, alg: JwsAlg): KeyObject | undefined {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    return undefined;
  }
  const type = key.asymmetricKeyType;
  if (alg === "RS256")
    return type === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048 ? key : undefined;
  if (alg === "ES256") return type === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1" ? key : undefined;
  return type === "ed25519" ? key : undefined;
}

export interface JwtVerifyOptions {
  /** The public key a kid names; the key's own alg must be the token's (no algorithm confusion). */
  key(kid: string): JwtVerifyKey | undefined | Promise<JwtVerifyKey | undefined>;
  algorithms: readonly string[];
  /** The expected `typ` header, compared as media types (`at+jwt` = `application/at+jwt`, any case). */
  typ: string;
  issuer: string;
  /** When set, `aud` must be (or contain) one of these. */
  audience?: string | readonly string[];
  requiredClaims?: readonly string[];
  /** Seconds of leeway on exp and nbf; 0 unless set. */
  clockToleranceSeconds?: number;
  /** Seconds since the epoch. */
  now?: () => number;
  /** Signatures already verified (./signature-memo.ts): the same token with the same key is not verified twice. */
  signatures?: SignatureMemo;
}

export interface VerifiedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });
const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A base64url segment as JSON, only when it is a plain object; undefined otherwise (bad base64url, UTF-8 or JSON). */
function jsonObject(segment: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(Buffer.from(segment, "base64url")));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Object.prototype.toString.call(value) !== "[object Object]")
    return undefined;
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null ? (value as Record<string, unknown>) : undefined;
}

const mediaType = (typ: string) => (typ.includes("/") ? typ.toLowerCase() : `application/${typ.toLowerCase()}`);

function audienceMatches(aud: unknown, accepted: readonly string[]): boolean {
  if (typeof aud === "string") return accepted.includes(aud);
  return Array.isArray(aud) && accepted.some((a) => aud.includes(a));
}

/** A numeric date claim: undefined when absent, else a number or a rejection. */
function numericDate(payload: Record<string, unknown>, claim: string): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== "number") throw new JwtRejected("claims", `"${claim}" claim must be a number`, payload);
  return value;
}

/**
 * Verifies a compact JWS JWT with node:crypto's synchronous verify and a
 * KeyObject (about a third of jose's jwtVerify with a WebCrypto key), with
 * jose's checks in jose's order: three parts, a JSON object header without
 * `crit`, an allowed alg, the kid's key of that same alg, the signature, a
 * JSON object claims set, typ, required claims (plus iss, and aud when an
 * audience is given), issuer, audience, iat/nbf/exp as numbers, nbf and exp
 * against the clock with the tolerance. Throws JwtRejected.
 */
export async function verifyJwt(token: string, opts: JwtVerifyOptions): Promise<VerifiedJwt> {
  const parts = typeof token === "string" ? token.split(".") : [];
  if (parts.length !== 3) throw new JwtRejected("malformed", "not a compact JWS");
  const [head, body, sig] = parts as [string, string, string];
  const header = jsonObject(head);
  if (!header) throw new JwtRejected("malformed", "the protected header is not a JSON object");
  // We never sign with extensions (jose accepts only b64, which a JWT must not turn off).
  if (header.crit !== undefined) throw new JwtRejected("malformed", "unsupported crit header");
  const { alg, kid } = header;
  if (typeof alg !== "string" || !alg || !opts.algorithms.includes(alg))
    throw new JwtRejected("alg", "alg missing or not allowed");
  const found = typeof kid === "string" ? await opts.key(kid) : undefined;
  if (!found || found.alg !== alg) throw new JwtRejected("key", "unknown signing key");
  if (!BASE64URL.test(body) || !BASE64URL.test(sig) || sig.length % 4 === 1)
    throw new JwtRejected("malformed", "not base64url");
  let valid = opts.signatures?.verified(token, found.key) ?? false;
  if (!valid) {
    const input = Buffer.from(`${head}.${body}`, "latin1");
    const signature = Buffer.from(sig, "base64url");
    try {
      valid =
        alg === "EdDSA"
          ? verify(null, input, found.key, signature)
          : verify(
              "sha256",
              input,
              alg === "ES256" ? { key: found.key, dsaEncoding: "ieee-p1363" } : found.key,
              signature,
            );
    } catch {
      valid = false;
    }
    if (!valid) throw new JwtRejected("signature", "signature verification failed");
    opts.signatures?.remember(token, found.key);
  }

  const payload = jsonObject(body);
  if (!payload) throw new JwtRejected("malformed", "the claims set is not a JSON object");
  if (typeof header.typ !== "string" || mediaType(header.typ) !== mediaType(opts.typ))
    throw new JwtRejected("typ", 'unexpected "typ" header', payload);
  const audiences =
    opts.audience === undefined ? undefined : typeof opts.audience === "string" ? [opts.audience] : opts.audience;
  for (const claim of new Set([...(opts.requiredClaims ?? []), ...(audiences ? ["aud"] : []), "iss"])) {
    if (!Object.hasOwn(payload, claim)) throw new JwtRejected("claims", `missing required "${claim}" claim`, payload);
  }
  if (payload.iss !== opts.issuer) throw new JwtRejected("claims", 'unexpected "iss" claim value', payload);
  if (audiences && !audienceMatches(payload.aud, audiences))
    throw new JwtRejected("claims", 'unexpected "aud" claim value', payload);
  const tolerance = opts.clockToleranceSeconds ?? 0;
  const now = (opts.now ?? epochSeconds)();
  numericDate(payload, "iat");
  const nbf = numericDate(payload, "nbf");
  if (nbf !== undefined && nbf > now + tolerance)
    throw new JwtRejected("claims", '"nbf" claim timestamp check failed', payload);
  const exp = numericDate(payload, "exp");
  if (exp !== undefined && exp <= now - tolerance)
    throw new JwtRejected("expired", '"exp" claim timestamp check failed', payload);
  return { header, payload };
}
