import { domainError } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";
import type { IdKey } from "../users/identifiers.ts";
import type { ConfirmationOptions } from "./options.ts";

const TOKEN_BOX = "confirmation-resend";
const TOKEN_AAD = "resend-token-v1";

/**
 * The stateless token of the 412 `content.url`: user, key, expiry and the
 * login's entry point (whose application may ask for the resend page's bot
 * check) sealed (AES-256-GCM) with the service key.
 */
export function sealResendToken(
  keys: KeyRing,
  options: ConfirmationOptions,
  userId: string,
  key: IdKey,
  entrypointId = "",
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + options.resendTokenTtlSeconds;
  const body = { u: userId, k: key, x: expires, ...(entrypointId ? { e: entrypointId } : {}) };
  return keys.box(TOKEN_BOX).seal(JSON.stringify(body), TOKEN_AAD);
}

/** The user, key and entry point ("" when none) of a resend token; INVALID_CODE when it is forged, damaged or expired. */
export function openResendToken(
  keys: KeyRing,
  token: string,
  now = Date.now(),
): { userId: string; key: string; entrypointId: string } {
  let parsed: { u?: unknown; k?: unknown; x?: unknown; e?: unknown };
  try {
    // The full 128-bit GCM tag (22 base64url chars): Node would accept a truncated one.
    if (token.split(".")[3]?.length !== 22) throw new Error("tag length");
    parsed = JSON.parse(keys.box(TOKEN_BOX).open(token, TOKEN_AAD)) as typeof parsed;
  } catch {
    throw domainError("INVALID_CODE", "The resend link is not valid.");
  }
  if (
    typeof parsed.u !== "string" ||
    typeof parsed.k !== "string" ||
    typeof parsed.x !== "number" ||
    parsed.x * 1000 <= now
  ) {
    throw domainError("INVALID_CODE", "The resend link is not valid or has expired.");
  }
  return { userId: parsed.u, key: parsed.k, entrypointId: typeof parsed.e === "string" ? parsed.e : "" };
}
