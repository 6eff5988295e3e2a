import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { readArgon2Phc } from "./argon2.ts";
import { decodeB64, phcB64 } from "./encoding.ts";
import { isPbkdf2Digest, pbkdf2Phc } from "./pbkdf2.ts";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON string member (Keycloak nests secretData and credentialData as strings), or the object itself. */
function nested(v: JsonValue | undefined): JsonObject | undefined {
  if (isObject(v)) return v;
  if (typeof v !== "string") return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return isObject(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Keycloak's additionalParameters hold each value as a list of strings (`{"memory": ["7168"]}`). */
function param(params: JsonObject | undefined, name: string): string | undefined {
  const v = params?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" || typeof first === "number" ? String(first) : undefined;
}

interface Flat {
  algorithm: string;
  iterations: number;
  salt: Buffer;
  value: Buffer;
  params: JsonObject | undefined;
}

/** The realm export's credential (`type`, `secretData`, `credentialData`) or its flattened form. */
function flatten(v: JsonObject): Flat | undefined {
  const secret = "secretData" in v ? nested(v.secretData) : v;
  const data = "credentialData" in v ? nested(v.credentialData) : v;
  if ("type" in v && v.type !== "password") return undefined;
  const algorithm = data?.algorithm;
  const iterations = data?.hashIterations;
  const salt = typeof secret?.salt === "string" ? decodeB64(secret.salt) : undefined;
  const value = typeof secret?.value === "string" ? decodeB64(secret.value) : undefined;
  if (typeof algorithm !== "string" || typeof iterations !== "number" || !Number.isInteger(iterations))
    return undefined;
  if (!salt?.length || !value?.length) return undefined;
  const params = isObject(data?.additionalParameters) ? data.additionalParameters : undefined;
  return { algorithm, iterations, salt, value, params };
}

/**
 * Keycloak's password credential as the stored string of its family: the
 * pbkdf2 ones (`pbkdf2` is SHA-1) become PBKDF2 PHC strings, `argon2` an
 * argon2 PHC string from its additionalParameters (type, version, memory,
 * parallelism; hashIterations are its passes). Undefined for anything else.
 */
export function readKeycloak(v: JsonValue): string | undefined {
  if (!isObject(v)) return undefined;
  const f = flatten(v);
  if (!f) return undefined;
  const pbkdf2 = /^pbkdf2(?:-(sha256|sha512))?$/.exec(f.algorithm);
  if (pbkdf2) {
    const digest = pbkdf2[1] ?? "sha1";
    if (!isPbkdf2Digest(digest) || f.iterations < 1 || f.iterations > 10_000_000 || f.value.length < 16)
      return undefined;
    return pbkdf2Phc({ digest, rounds: f.iterations, salt: f.salt, hash: f.value });
  }
  if (f.algorithm !== "argon2") return undefined;
  const type = param(f.params, "type") ?? "id";
  const version = param(f.params, "version") ?? "1.3";
  const memory = param(f.params, "memory") ?? "7168";
  const lanes = param(f.params, "parallelism") ?? "1";
  if (!/^(id|i|d)$/.test(type) || !/^1\.[03]$/.test(version)) return undefined;
  const v2 = version === "1.3" ? 19 : 16;
  return readArgon2Phc(
    `$argon2${type}$v=${v2}$m=${memory},t=${f.iterations},p=${lanes}$${phcB64(f.salt)}$${phcB64(f.value)}`,
  );
}
