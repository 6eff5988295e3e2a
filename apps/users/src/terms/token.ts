import { domainError } from "@gatehouse/errors";
import type { KeyRing } from "@gatehouse/secrets";

const TOKEN_BOX = "terms-page";
const TOKEN_AAD = "terms-token-v1";
/** The hosted terms page of a 451 answer works this long. */
export const TERMS_TOKEN_TTL_SECONDS = 30 * 60;

/** Whom the hosted terms page answers for: the user, and the application and entry point of the login. */
export interface TermsTarget {
  userId: string;
  clientId: string;
  entrypointId: string;
}

/** The stateless token of the 451 `content.url`: user, application, entry point and expiry sealed (AES-256-GCM). */
export function sealTermsToken(keys: KeyRing, t: TermsTarget, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + TERMS_TOKEN_TTL_SECONDS;
  return keys
    .box(TOKEN_BOX)
    .seal(JSON.stringify({ u: t.userId, c: t.clientId, e: t.entrypointId, x: expires }), TOKEN_AAD);
}

/** The target of a terms token; INVALID_CODE when it is forged, damaged or expired. */
export function openTermsToken(keys: KeyRing, token: string, now = Date.now()): TermsTarget {
  let p: { u?: unknown; c?: unknown; e?: unknown; x?: unknown };
  try {
    // The full 128-bit GCM tag (22 base64url chars): Node would accept a truncated one.
    if (token.split(".")[3]?.length !== 22) throw new Error("tag length");
    p = JSON.parse(keys.box(TOKEN_BOX).open(token, TOKEN_AAD)) as typeof p;
  } catch {
    throw domainError("INVALID_CODE", "The terms link is not valid.");
  }
  if (
    typeof p.u !== "string" ||
    typeof p.c !== "string" ||
    typeof p.e !== "string" ||
    typeof p.x !== "number" ||
    p.x * 1000 <= now
  ) {
    throw domainError("INVALID_CODE", "The terms link is not valid or has expired.");
  }
  return { userId: p.u, clientId: p.c, entrypointId: p.e };
}
